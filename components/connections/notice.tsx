// A one-line banner at the top of the Connections page. Success and information are a status (read out when
// they appear), a failure an alert.
const TONE = {
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  info: "border-sky-200 bg-sky-50 text-sky-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  error: "border-red-200 bg-red-50 text-red-800",
} as const;

export function Notice({
  tone,
  testId,
  children,
}: {
  tone: keyof typeof TONE;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`mb-4 rounded-lg border px-4 py-3 text-sm ${TONE[tone]}`}
    >
      {children}
    </div>
  );
}
