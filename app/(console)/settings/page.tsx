import { requirePageUser } from "@/app/_lib/auth";
import { PageHeader } from "@/components/page-header";
import { RoleBadge } from "@/components/role-badge";
import { ChangePasswordForm } from "@/components/settings/change-password-form";
import { RedactionSettings } from "@/components/settings/redaction-settings";
import { SecretsSettings } from "@/components/settings/secrets-settings";
import { SettingsNav, type SettingsSection } from "@/components/settings/settings-nav";
import { card } from "@/components/ui";
import { hasRole } from "@/lib/roles";
import { ApiTokens } from "./api-tokens";

export const metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requirePageUser("USER", "/settings");
  const admin = hasRole(user.role, "ADMIN");
  const sections: SettingsSection[] = [
    { id: "account", label: "Your account" },
    { id: "tokens", label: "API tokens" },
    ...(admin
      ? [
          { id: "secrets", label: "Secrets" },
          { id: "redaction", label: "Redaction" },
        ]
      : []),
  ];
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
      <div className="lg:grid lg:grid-cols-[11rem_minmax(0,1fr)] lg:gap-8">
        <SettingsNav sections={sections} />
        {/* Each section is addressable (/settings#tokens); the margin keeps its heading below the sticky bar. */}
        <div className="min-w-0">
          <section id="account" aria-labelledby="account-heading" className={`${card} mb-6 scroll-mt-24 p-5`}>
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
          <div id="tokens" className="scroll-mt-24">
            <ApiTokens />
          </div>
          {admin && (
            <div id="secrets" className="scroll-mt-24">
              <SecretsSettings />
            </div>
          )}
          {admin && (
            <div id="redaction" className="scroll-mt-24">
              <RedactionSettings />
            </div>
          )}
        </div>
      </div>
    </>
  );
}
