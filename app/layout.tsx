import type { Metadata, Viewport } from "next";
import { Providers } from "./providers";
import "./globals.css";

// The logo as an inline favicon, so no icon file has to be served.
const FAVICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/>' +
      '<g fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round"><path d="M8 26V14a8 8 0 0 1 16 0v12"/>' +
      '<path d="M12 26V8.6M16 26V6M20 26V8.6M8 17h16M8 21.5h16"/></g></svg>',
  );

export const metadata: Metadata = {
  title: { default: "Portcullis", template: "%s · Portcullis" },
  description: "The MCP gateway console",
  icons: { icon: FAVICON },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#0f172a" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
