// What each console section is for: the sidebar icons and the dashboard cards read from here.
import { CodeIcon } from "./playground/code-icon";
import { AgentIcon, ApprovalIcon, AuditIcon, HomeIcon, PolicyIcon, ServerIcon, SettingsIcon, TaskIcon, UsersIcon } from "./icons";

type Section = { icon: (p: { className?: string }) => React.ReactNode; summary: string };

export const SECTIONS: Record<string, Section> = {
  "/": { icon: HomeIcon, summary: "Live gateway traffic, pending approvals and unhealthy servers, and what you can do in this console." },
  "/agents": { icon: AgentIcon, summary: "Connect an agent with a session token that holds only the tools and paths you pick." },
  "/servers": { icon: ServerIcon, summary: "Register upstream MCP servers and review the tools they expose to agents." },
  "/policies": { icon: PolicyIcon, summary: "Decide which tool calls run, which are refused and which wait for a person." },
  "/approvals": { icon: ApprovalIcon, summary: "Review tool calls a policy held back, and approve or deny them." },
  "/tasks": { icon: TaskIcon, summary: "Follow tool calls made through the gateway, from queued to finished." },
  "/playground": { icon: CodeIcon, summary: "Try a short program that calls tools, with your permissions or an agent session's, and see each call's decision." },
  "/audit": { icon: AuditIcon, summary: "Search the record of sign-ins, changes and tool calls." },
  "/users": { icon: UsersIcon, summary: "Add people, set their roles and disable accounts." },
  "/settings": { icon: SettingsIcon, summary: "Your account and personal API tokens for the REST API." },
};

export function SectionIcon({ href, className }: { href: string; className?: string }) {
  const Icon = SECTIONS[href]?.icon ?? HomeIcon;
  return <Icon className={className} />;
}
