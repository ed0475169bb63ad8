"use client";
// The console frame: a sidebar of the sections the user's role may open (a slide-over menu on phones) and a
// header with who is signed in. The server decides which items to pass; hiding a link is not the guard.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect, useRef, useState } from "react";
import type { NavItem, TRole } from "@/lib/roles";
import { usePendingApprovalsCount } from "./approvals/use-pending-approvals-count";
import { CloseIcon, LogoIcon, MenuIcon } from "./icons";
import { RoleBadge } from "./role-badge";
import { SectionIcon } from "./sections";
import { buttonSecondary } from "./ui";

export type ShellUser = { email: string; name: string | null; role: TRole };

function isActive(pathname: string, href: string) {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

function Brand() {
  return (
    <Link href="/" className="flex items-center gap-2 rounded-md text-white focus-visible:outline-2 focus-visible:outline-indigo-400">
      <span className="flex h-8 w-8 items-center justify-center rounded-md bg-indigo-500">
        <LogoIcon className="h-5 w-5" />
      </span>
      <span className="text-base font-semibold tracking-tight">Portcullis</span>
    </Link>
  );
}

type Badges = Partial<Record<string, { text: string; label: string }>>;

function NavLinks({ items, pathname, onNavigate, badges = {} }: { items: readonly NavItem[]; pathname: string; onNavigate?: () => void; badges?: Badges }) {
  return (
    <ul className="space-y-1">
      {items.map((item) => {
        const active = isActive(pathname, item.href);
        const badge = badges[item.href];
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-400 ${
                active ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white"
              }`}
            >
              <SectionIcon href={item.href} className={`h-5 w-5 shrink-0 ${active ? "text-indigo-400" : "text-slate-400"}`} />
              {item.label}
              {badge && (
                <span data-testid={`nav-badge-${item.href.slice(1)}`} aria-label={badge.label} className={navBadge}>
                  {badge.text}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

const navBadge = "ml-auto rounded-full bg-amber-400 px-2 py-0.5 text-xs font-semibold text-slate-900 tabular-nums";

function SignOutButton({ className = "" }: { className?: string }) {
  const [busy, setBusy] = useState(false);
  async function onClick() {
    setBusy(true);
    // Without a redirect, next-auth would send the browser to NEXTAUTH_URL, which may not be the host in use.
    await signOut({ redirect: false });
    window.location.assign("/signin");
  }
  return (
    <button type="button" className={`${buttonSecondary} ${className}`} onClick={() => void onClick()} disabled={busy}>
      {busy ? "Signing out…" : "Sign out"}
    </button>
  );
}

export function ConsoleShell({ user, nav, children }: { user: ShellUser; nav: readonly NavItem[]; children: React.ReactNode }) {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  // Approvers see how many requests wait, on every page (and on the menu button on phones).
  const pending = usePendingApprovalsCount(nav.some((i) => i.href === "/approvals"));
  const pendingText = pending && pending.count > 0 ? `${pending.count}${pending.more ? "+" : ""}` : null;
  const badges: Badges = pendingText ? { "/approvals": { text: pendingText, label: `${pendingText} pending` } } : {};

  // The open menu takes focus and Escape; closing it hands focus back to the menu button.
  useEffect(() => {
    if (!menuOpen) return;
    closeButtonRef.current?.focus();
    const menuButton = menuButtonRef.current;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      menuButton?.focus();
    };
  }, [menuOpen]);

  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>

      {/* Desktop sidebar */}
      <aside className="palette-fixed fixed inset-y-0 left-0 z-30 hidden w-60 flex-col bg-slate-900 px-4 py-5 lg:flex">
        <Brand />
        <nav aria-label="Main" className="mt-8 flex-1 overflow-y-auto">
          <NavLinks items={nav} pathname={pathname} badges={badges} />
        </nav>
        <p className="px-3 text-xs text-slate-500">MCP gateway console</p>
      </aside>

      {/* Phone / tablet slide-over */}
      {menuOpen && (
        <div className="fixed inset-0 z-40 lg:hidden">
          <div className="absolute inset-0 bg-slate-900/60" onClick={() => setMenuOpen(false)} aria-hidden="true" />
          <div id="mobile-menu" role="dialog" aria-modal="true" aria-label="Menu" className="palette-fixed relative flex h-full w-72 max-w-[85%] flex-col bg-slate-900 px-4 py-5 shadow-xl">
            <div className="flex items-center justify-between">
              <Brand />
              <button
                ref={closeButtonRef}
                type="button"
                onClick={() => setMenuOpen(false)}
                className="rounded-md p-2 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400"
                aria-label="Close menu"
              >
                <CloseIcon />
              </button>
            </div>
            <nav aria-label="Main" className="mt-8 flex-1 overflow-y-auto">
              <NavLinks items={nav} pathname={pathname} onNavigate={() => setMenuOpen(false)} badges={badges} />
            </nav>
            <div className="border-t border-slate-800 pt-4">
              <p className="truncate px-3 text-sm text-slate-300">{user.email}</p>
            </div>
          </div>
        </div>
      )}

      <div className="lg:pl-60">
        <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 lg:px-8">
          <button
            ref={menuButtonRef}
            type="button"
            className="relative -ml-1 rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 lg:hidden"
            onClick={() => setMenuOpen(true)}
            aria-label="Open menu"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
          >
            <MenuIcon className="h-6 w-6" />
            {pendingText && (
              <span data-testid="menu-badge-approvals" className="palette-fixed absolute -top-0.5 -right-0.5 rounded-full bg-amber-400 px-1.5 text-[10px] font-semibold text-slate-900">
                <span className="sr-only">Approvals: </span>
                {pendingText}
              </span>
            )}
          </button>
          <div className="flex items-center gap-2 text-slate-900 lg:hidden">
            <LogoIcon className="h-5 w-5 text-indigo-600" />
            <span className="hidden font-semibold sm:inline">Portcullis</span>
          </div>
          <div className="ml-auto flex min-w-0 items-center gap-3">
            <div className="flex min-w-0 items-center gap-2">
              <span className="sr-only">Signed in as</span>
              <span className="truncate text-sm text-slate-700" data-testid="user-email" title={user.email}>
                {user.email}
              </span>
              <RoleBadge role={user.role} />
            </div>
            <SignOutButton className="shrink-0" />
          </div>
        </header>
        <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
