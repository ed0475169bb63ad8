// The sidebar's icon for each console section.
import { CodeIcon } from "./playground/code-icon";
import {
  AgentIcon,
  ApprovalIcon,
  AuditIcon,
  HomeIcon,
  LayersIcon,
  LinkIcon,
  PolicyIcon,
  ServerIcon,
  SettingsIcon,
  TaskIcon,
  UsersIcon,
} from "./icons";

type Icon = (p: { className?: string }) => React.ReactNode;

const SECTION_ICONS: Record<string, Icon> = {
  "/": HomeIcon,
  "/agents": AgentIcon,
  "/connections": LinkIcon,
  "/servers": ServerIcon,
  "/virtual-servers": LayersIcon,
  "/policies": PolicyIcon,
  "/approvals": ApprovalIcon,
  "/tasks": TaskIcon,
  "/playground": CodeIcon,
  "/audit": AuditIcon,
  "/users": UsersIcon,
  "/settings": SettingsIcon,
};

export function SectionIcon({ href, className }: { href: string; className?: string }) {
  const Icon = SECTION_ICONS[href] ?? HomeIcon;
  return <Icon className={className} />;
}
