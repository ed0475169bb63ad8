import { requirePageUser } from "@/app/_lib/auth";
import { PageHeader } from "@/components/page-header";
import { RoleBadge } from "@/components/role-badge";
import { ChangePasswordForm } from "@/components/settings/change-password-form";
import { RedactionSettings } from "@/components/settings/redaction-settings";
import { SecretsSettings } from "@/components/settings/secrets-settings";
import { card } from "@/components/ui";
import { hasRole } from "@/lib/roles";
import { ApiTokens } from "./api-tokens";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requirePageUser("USER", "/settings");
  const admin = hasRole(user.role, "ADMIN");
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          admin
            ? "Your account, the tokens that let scripts use the REST API as you, the secrets upstream servers use, and what the audit log and the logs redact."
            : "Your account and the tokens that let scripts use the REST API as you."
        }
      />
      <section aria-labelledby="account-heading" className={`${card} mb-6 p-5`}>
        <h2 id="account-heading" className="text-base font-semibold text-slate-900">
          Your account
        </h2>
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-500">E-mail</dt>
            <dd className="mt-1 font-medium break-all text-slate-900">{user.email}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Name</dt>
            <dd className="mt-1 font-medium text-slate-900">{user.name ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Role</dt>
            <dd className="mt-1">
              <RoleBadge role={user.role} />
            </dd>
          </div>
        </dl>
        <ChangePasswordForm email={user.email} />
      </section>
      <ApiTokens />
      {admin && <SecretsSettings />}
      {admin && <RedactionSettings />}
    </>
  );
}
