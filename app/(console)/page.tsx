import Link from "next/link";
import { requirePageUser } from "@/app/_lib/auth";
import { ArrowRightIcon } from "@/components/icons";
import { DashboardView } from "@/components/dashboard/dashboard-view";
import { ROLE_LABEL } from "@/components/role-badge";
import { SECTIONS, SectionIcon } from "@/components/sections";
import { hasRole, NAV, type TRole } from "@/lib/roles";

export const metadata = { title: "Dashboard" };

const ROLE_SUMMARY: Record<TRole, string> = {
  ADMIN:
    "You can register servers, write policies, manage users and review everything that passes through the gateway.",
  APPROVER: "You can approve or deny tool calls that a policy holds for review, and follow tasks.",
  USER: "You can connect agents to the gateway with the tools and paths you hold, follow the tasks you start, and manage your personal API tokens.",
};

export default async function DashboardPage() {
  const user = await requirePageUser("USER", "/");
  const sections = NAV.filter((item) => item.href !== "/" && hasRole(user.role, item.minRole));
  const firstName = user.name?.trim().split(/\s+/)[0];
  return (
    <div>
      <section className="palette-fixed rounded-lg bg-gradient-to-br from-indigo-600 to-indigo-800 px-6 py-6 text-white shadow-sm sm:px-8">
        <p className="text-sm font-medium text-indigo-200">Portcullis console</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight sm:text-3xl">
          Welcome{firstName ? `, ${firstName}` : ""}
        </h1>
        <p className="mt-2 max-w-2xl text-sm text-indigo-100">
          Signed in as <span className="font-medium text-white">{user.email}</span> with the{" "}
          <span className="font-medium text-white">{ROLE_LABEL[user.role]}</span> role. {ROLE_SUMMARY[user.role]}
        </p>
      </section>

      <div className="mt-8">
        <DashboardView role={user.role} />
      </div>

      <h2 className="mt-10 mb-4 text-sm font-semibold tracking-wide text-slate-500 uppercase">Your sections</h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Sections you can open">
        {sections.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              className="group flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-xs transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              <span className="flex h-10 w-10 items-center justify-center rounded-md bg-indigo-50 text-indigo-600">
                <SectionIcon href={item.href} className="h-5 w-5" />
              </span>
              <span className="mt-4 flex items-center gap-1 font-semibold text-slate-900">
                {item.label}
                <ArrowRightIcon className="h-4 w-4 text-slate-400 transition group-hover:translate-x-0.5 group-hover:text-indigo-600" />
              </span>
              <span className="mt-1 text-sm text-slate-600">{SECTIONS[item.href]?.summary}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
