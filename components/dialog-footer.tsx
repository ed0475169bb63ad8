// A dialog's action row that stays in view: in a long dialog (the modal <dialog> scrolls when its content is
// taller than the screen) the footer sticks to the bottom edge, so the main button is always reachable on a
// desktop and on a phone. Used by <Dialog stickyFooter>; the surface colour follows the palette (dark mode).
export function DialogFooter({ children, sticky = false }: { children: React.ReactNode; sticky?: boolean }) {
  return (
    <div
      data-testid="dialog-footer"
      className={
        sticky
          ? "sticky bottom-0 z-10 -mx-6 mt-6 -mb-6 flex flex-wrap justify-end gap-2 border-t border-slate-200 bg-white px-6 py-4"
          : "mt-6 flex flex-wrap justify-end gap-2"
      }
    >
      {children}
    </div>
  );
}
