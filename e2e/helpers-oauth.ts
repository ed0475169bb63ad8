// An MCP client's OAuth redirect in a browser test: the client's redirect URI is a local listener in real life;
// here the browser's request to it is caught and answered, and the URL it was sent to is kept.
import { REDIRECT_URI } from "@/server/oauth/as/oauth-test-client";
import type { Page } from "./fixtures";

export async function catchOAuthRedirect(page: Page): Promise<{ url(): URL | undefined }> {
  let callback: URL | undefined;
  await page.route(`${new URL(REDIRECT_URI).origin}/**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "You can close this window." });
  });
  return { url: () => callback };
}
