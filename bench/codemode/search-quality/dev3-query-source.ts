// The dev3 split: a validation split, written on 2026-12-06 after dev2 had been tuned on, for the 124 tools that no
// dev or dev2 query is for (shuffled with Python random.Random(20261208) and dealt to three writers). The writers
// worked as dev2's did: blind to the ranker, the repository and every other query, with only the tools' definitions
// and the catalog's one-line descriptions. Like the held-out split, it reports aggregates only (`--failures` and
// `--ranks-out` never show its queries), so that a change chosen on tune, dev and dev2 can be checked on queries no
// one tuned on, and the held-out split stays for reporting. build-dataset.ts adds the split ("dev3").
export const DEV3_QUERY_SOURCE: [id: string, query: string, expected: string][] = [
  [
    "f1-roles-still-recruiting",
    "Which roles are we still recruiting for right now? Need the vacancies that haven't been filled yet.",
    "bamboohr/list_job_openings",
  ],
  [
    "f1-hubspot-person-by-email",
    "Pull up jane.doe@acmecorp.com's record in HubSpot, with all her fields plus the deals and companies she's tied to.",
    "hubspot/get_contact",
  ],
  [
    "f1-trello-tickbox-entry",
    "On our Trello card, put 'Book venue for offsite' as a new tick-box entry on checklist 64b1f0e2a7c3.",
    "trello/add_checklist_item",
  ],
  [
    "f1-notion-db-entry-blueprints",
    "Which templates can new entries in our Notion Bug Tracker data source (id 2f8e41c0-9b7a-4d1e-a3c5-7e6f1d2b9a44) start from?",
    "notion/API-list-data-source-templates",
  ],
  [
    "f1-team-tree-under-vp",
    "Show me everyone under VP Maria Chen (id 4412), two tiers down, so I can map out her team structure.",
    "bamboohr/get_org_chart",
  ],
  [
    "f1-squash-ship-pr",
    "Squash and ship PR #482 in acme/web-app on GitHub now that checks are green, titled 'Add dark mode toggle'.",
    "github/merge_pull_request",
  ],
  [
    "f1-notion-remove-stale-callout",
    "Remove the stale callout block 7d3e5a90-1c2b-4f8e-9a6d-0b1c2d3e4f50 from our onboarding doc in Notion.",
    "notion/API-delete-a-block",
  ],
  [
    "f1-bitbucket-yaml-on-branch",
    "Show me what's in config/settings.yaml on the release/2.3 branch of payments-api in our Bitbucket workspace fintech-team.",
    "bitbucket/get_file",
  ],
  [
    "f1-what-does-mail-say",
    "What does mail 18c4f2a9b7e3d001 in my inbox say, and did the sender include any files?",
    "gmail/read_email",
  ],
  [
    "f1-wiki-body-and-version",
    "Fetch the body and current version number of Confluence page 884213 so I can edit it without clobbering anyone.",
    "confluence/get_page",
  ],
  [
    "f1-forget-falcon-and-bob",
    "Forget everything you've stored about 'Project Falcon' and 'Bob Smith' in memory, including any links they have to other nodes.",
    "memory/delete_entities",
  ],
  [
    "f1-dump-everything-remembered",
    "Dump everything you currently remember: all the people, facts and connections you've saved so far.",
    "memory/read_graph",
  ],
  [
    "f1-pending-vacation-asks-july",
    "Any vacation asks still awaiting a manager's OK between July 1 and July 31, 2025? I need to clear the backlog.",
    "bamboohr/list_time_off_requests",
  ],
  [
    "f1-lock-draft-for-payment",
    "Lock in draft in_1PqR7sT8uVwXyZ so the customer can actually settle it; it's ready to go out.",
    "stripe/finalize_invoice",
  ],
  [
    "f1-move-design-review-later",
    "Move the design review on my calendar (id 7h3k9q2m) from 2pm to 3:30pm Thursday and notify all invitees.",
    "google-calendar/update_event",
  ],
  [
    "f1-dummy-slow-task-test",
    "Run a dummy 30-second task split into 6 stages so I can check our client shows a live percentage while it waits.",
    "everything/trigger-long-running-operation",
  ],
  [
    "f1-snowflake-revenue-by-region",
    "In Snowflake, run SELECT region, SUM(revenue) FROM sales.orders GROUP BY region on the ANALYTICS_WH warehouse.",
    "snowflake/run_query",
  ],
  [
    "f1-supplier-invoice-into-books",
    "We got a $2,340 invoice from supplier Acme Paper (id 57), due March 15, 2025; log it so we pay it later.",
    "quickbooks/create_bill",
  ],
  [
    "f1-sso-accounts-engineering",
    "Pull the SSO accounts for everyone whose department is Engineering; first 50 is fine.",
    "okta/list_users",
  ],
  [
    "f1-checkout-url-two-units",
    "Give me a checkout URL for price_1NxYzAbC with quantity 2 that I can drop in an email to the client.",
    "stripe/create_payment_link",
  ],
  [
    "f1-smog-la-today",
    "How bad is the smog at lat 34.05, lon -118.24 today? Looking for PM2.5 and ozone readings.",
    "openweather/get_air_quality",
  ],
  [
    "f1-board-deck-german",
    "Turn our Q3 board deck (https://files.acme.com/share/8f2k1/q3-board-deck) into German without messing up the slide formatting.",
    "deepl/translate_document",
  ],
  [
    "f1-box-austin-denver-cost",
    "What would UPS, FedEx or USPS charge to mail a 2 kg 30x20x15 cm box from Austin 78701 to Denver 80202?",
    "shippo/get_rates",
  ],
  [
    "f1-provision-new-hire-login",
    "Provision an identity account for new hire Priya Nair (priya.nair@acme.io) and email her the welcome link to get signed in.",
    "okta/create_user",
  ],
  [
    "f1-canned-refund-response",
    "Run our 'Refund approved - close out' canned response (id 812) on support case 30551.",
    "zendesk/apply_macro",
  ],
  [
    "f1-airtable-leads-rows",
    "Add three new leads to Airtable base appX7k2LmN9pQ, 'Leads' tab, with name, email and source filled in.",
    "airtable/create_records",
  ],
  [
    "f1-password-url-proposal-pdf",
    "Give me a password-protected URL for /Clients/Acme/proposal.pdf in my Dropbox that stops working on Dec 31.",
    "dropbox/create_shared_link",
  ],
  [
    "f1-who-is-in-slack",
    "Who all is in our Slack? I need everyone's names and handles, 200 at a time.",
    "slack/slack_get_users",
  ],
  [
    "f1-calendly-reserved-slots",
    "What slots have prospects reserved through my Calendly page for June 9 to 13, ignoring cancelled ones?",
    "calendly/list_scheduled_events",
  ],
  [
    "f1-save-json-to-bucket",
    "Save this JSON report as reports/2025-06/summary.json in the acme-analytics bucket, marked as application/json.",
    "aws/s3_put_object",
  ],
  [
    "f1-fake-desktop-drag-pdf",
    "Pretend I'm pulling /tmp/invoice.pdf in from the desktop and letting go over the dashed upload zone on the site I have open.",
    "playwright/browser_drop",
  ],
  [
    "f1-latest-whatsapp-chats",
    "Show me my latest WhatsApp chats and the last thing said in each one.",
    "whatsapp/list_conversations",
  ],
  [
    "f1-asana-child-item",
    "Under Asana task 120456789 'Launch webinar', add a child item 'Write follow-up email' assigned to dana@acme.com.",
    "asana/add_subtask",
  ],
  [
    "f1-drive-board-materials-dir",
    "Make a new 'Q3 Board Materials' folder in Google Drive inside the Finance folder 0B7xKd9fQ2mZ.",
    "google-drive/create_folder",
  ],
  [
    "f1-pagerduty-checkout-blowing-up",
    "What's currently blowing up for checkout-api in PagerDuty? Only high-urgency stuff that's triggered or acked since 9am.",
    "pagerduty/list_incidents",
  ],
  [
    "f1-tap-place-order-button",
    "Tap the 'Place order' button, CSS selector #checkout-submit, in the headless Chrome tab.",
    "puppeteer/puppeteer_click",
  ],
  [
    "f1-mongo-pending-orders",
    "In Mongo, grab up to 20 docs from shop.orders where status is 'pending', newest first, returning only _id and total.",
    "mongodb/find",
  ],
  [
    "f1-dig-climate-funding",
    "No idea where this lives, so scour the internet and compile European climate-tech companies' latest funding rounds into a table.",
    "firecrawl/firecrawl_agent",
  ],
  [
    "f1-capture-tab-png",
    "Capture what the open tab in the automated Chromium session looks like right now and save it as checkout-step2.png.",
    "playwright/browser_take_screenshot",
  ],
  [
    "f1-why-deploy-failed",
    "Why did deployment dpl_8fKq2mX1 on Vercel fail? Show me the build output since 14:00 UTC today.",
    "vercel/get_deployment_logs",
  ],
  [
    "f1-gitlab-payment-gateway",
    "Find GitLab projects with 'payment-gateway' in the name.",
    "gitlab/search_repositories",
  ],
  [
    "f2-response-body-fourth-call",
    "What JSON did the server send back for the 4th call in the page's captured traffic? I need the whole payload.",
    "playwright/browser_network_request",
  ],
  [
    "f2-new-hubspot-person-priya",
    "Add Priya Nair (priya.nair@brightloop.io, Brightloop, +1 415 555 0182) as a new person in HubSpot.",
    "hubspot/create_contact",
  ],
  [
    "f2-rewrite-wiki-page-onboarding",
    "Rewrite the body of Confluence page 884213 (currently v12) with the new onboarding steps and retitle it 'Onboarding 2025'.",
    "confluence/update_page",
  ],
  [
    "f2-my-linear-bugs-in-progress",
    "Which Linear tickets assigned to me are still In Progress and tagged 'bug'?",
    "linear/list_issues",
  ],
  [
    "f2-checkout-flow-dropoff",
    "Where are people bailing out of our checkout flow (id 7710) between Jan 1 and Mar 31, 2025?",
    "mixpanel/funnel_report",
  ],
  [
    "f2-note-on-github-ticket",
    "Leave a note on octo-org/webapp #142 on GitHub saying the fix ships in v2.3.",
    "github/add_issue_comment",
  ],
  [
    "f2-opt-out-newsletter-subscriber",
    "jane.doe@example.com wants off our monthly newsletter list a1b2c3d4e5 — please opt her out.",
    "mailchimp/unsubscribe_member",
  ],
  [
    "f2-lock-contractor-sso-account",
    "Contractor 00u8xk2LmN3 finished their engagement — lock their SSO account so they can't get in anymore.",
    "okta/deactivate_user",
  ],
  [
    "f2-sync-stale-pr-with-main",
    "My PR #88 on acme/api is out of date with main — can you sync it up without me rebasing locally?",
    "github/update_pull_request_branch",
  ],
  [
    "f2-who-can-see-doc",
    "Which people can currently open or edit doc 1AbCdEfG_hIjKlMn in Drive? Want to audit sharing before the board meeting.",
    "google-drive/list_permissions",
  ],
  [
    "f2-warehouse-store-drive-times",
    "How long is the drive from each of our warehouses in Newark and Edison to the stores in Manhattan, Brooklyn and Queens?",
    "google-maps/maps_distance_matrix",
  ],
  [
    "f2-saved-esign-forms",
    "Which prebuilt e-sign forms (NDA, offer letter, etc.) do we have saved in DocuSign?",
    "docusign/list_templates",
  ],
  [
    "f2-fake-log-spam-on",
    "Switch the demo server's fake log spam on so I can see if my client shows notifications of various severities.",
    "everything/toggle-simulated-logging",
  ],
  [
    "f2-closed-won-opps-select",
    "Run SELECT Id, Name, Amount FROM Opportunity WHERE StageName = 'Closed Won' against our Salesforce org.",
    "salesforce/soql_query",
  ],
  [
    "f2-recent-prod-deploys-vercel",
    "Show the last 10 prod deploys of the marketing-site project on Vercel and whether any errored.",
    "vercel/list_deployments",
  ],
  [
    "f2-push-edge-handler-live",
    "Push this edge JS handler live on Cloudflare under the name 'geo-redirect'.",
    "cloudflare/deploy_worker",
  ],
  [
    "f2-call-off-fraud-order",
    "Purchase #1045 in the store got flagged as fraud — call it off entirely and give the money back.",
    "shopify/cancel_order",
  ],
  [
    "f2-responses-under-slack-message",
    "Pull every response under the post 1712345678.123456 in channel C04ABCD1234 so I can catch up on the discussion.",
    "slack/slack_get_thread_replies",
  ],
  [
    "f2-top-unresolved-crashes-checkout",
    "What are the most frequent unresolved exceptions hitting the checkout-api project in our acme org on Sentry?",
    "sentry/list_issues",
  ],
  [
    "f2-copy-react-to-org",
    "Make our own copy of facebook/react under the acme-labs org on GitHub so we can patch it.",
    "github/fork_repository",
  ],
  [
    "f2-whatsapp-invoice-pdf",
    "Send the PDF at https://files.acme.com/inv-2231.pdf to +44 7700 900123 on WhatsApp with the caption 'Your March invoice'.",
    "whatsapp/send_media",
  ],
  [
    "f2-cover-my-oncall-friday",
    "I'm out Friday — have Dana (PXYZ123) take my pager slot on rotation P1ABCD from 9am to 5pm.",
    "pagerduty/create_override",
  ],
  [
    "f2-switch-to-checkout-page",
    "Which pages are open in the automated session right now? Switch me to the one showing checkout.",
    "playwright/browser_tabs",
  ],
  [
    "f2-what-user-did-lately",
    "What has visitor 8c1f-22ab been doing in our product analytics lately, and which properties do we have on them?",
    "mixpanel/get_user_profile",
  ],
  [
    "f2-kick-off-deploy-yml",
    "Kick off deploy.yml on the release/2.4 branch of acme/shop with environment=staging.",
    "github-actions/dispatch_workflow",
  ],
  [
    "f2-fix-account-phone-city",
    "Change the Phone and BillingCity on Account 0015g00000XyZ12AAB in Salesforce to +1 312 555 0100 and Chicago.",
    "salesforce/update_record",
  ],
  [
    "f2-attach-resume-file-picker",
    "The picker dialog is open on the job application page — attach /home/me/resume.pdf and /home/me/cover.pdf.",
    "playwright/browser_file_upload",
  ],
  [
    "f2-dump-server-vars",
    "What variables like PATH and API_KEY does the demo server process actually have set? My key isn't getting picked up.",
    "everything/get-env",
  ],
  [
    "f2-load-more-reviews-scraped",
    "On the page I just scraped (id scr_7781), click 'Load more reviews' and grab the extra reviews that appear.",
    "firecrawl/firecrawl_interact",
  ],
  [
    "f2-past-threads-hydration-mismatch",
    "Dig through old GitHub issues, PRs and READMEs for anything on 'hydration mismatch with React 18 streaming', best hits first.",
    "firecrawl/firecrawl_research_search_github",
  ],
  [
    "f2-assets-liabilities-year-end",
    "What were our total assets, liabilities and equity as of December 31, 2024?",
    "quickbooks/get_balance_sheet",
  ],
  [
    "f2-pay-postage-rate",
    "Pay for postage using rate r_9f8e7d and give me the printable PDF plus the tracking code.",
    "shippo/purchase_label",
  ],
  [
    "f2-draft-spring-sale-blast",
    "Set up a spring sale email blast for list 4f2a9c, segment 112, subject 'Spring Sale starts now', from 'Acme Store' — don't send it yet.",
    "mailchimp/create_campaign",
  ],
  [
    "f2-put-csv-in-drive",
    "Put q3-report.csv into our Google Drive folder 0BxYz123 so finance can grab it.",
    "google-drive/upload_file",
  ],
  [
    "f2-puppeteer-pick-country",
    "In the Puppeteer session, pick 'Canada' from the #country dropdown on the checkout form.",
    "puppeteer/puppeteer_select",
  ],
  ["f2-bulk-add-order-docs", "Add these three order docs to shop.orders in Mongo in one go.", "mongodb/insert_many"],
  [
    "f2-blocked-tasks-notion-table",
    "Pull every row from our Notion tasks table 1a2b3c where Status is 'Blocked', sorted by due date.",
    "notion/API-query-data-source",
  ],
  [
    "f2-anything-mentioning-globex",
    "Look through our Salesforce CRM for anything mentioning 'Globex', whatever type of object it is.",
    "salesforce/search_records",
  ],
  [
    "f2-why-pods-oomkilled",
    "Why are pods in the payments namespace getting OOMKilled? Show what Kubernetes has been reporting recently.",
    "kubernetes/get_events",
  ],
  ["f2-tail-server-log", "Show me the last 50 lines of /var/log/app/server.log on disk.", "filesystem/read_file"],
  [
    "f2-headless-chrome-staging",
    "Open https://staging.acme.dev in Puppeteer's headless Chrome, relaunching it with --no-sandbox.",
    "puppeteer/puppeteer_navigate",
  ],
  [
    "f3-shipped-purchase-address-paid",
    "Buyer on shop purchase #5521 says nothing arrived — where was it sent, and did they actually pay?",
    "shopify/get_order",
  ],
  [
    "f3-brave-late-ramen-nearby",
    "Use Brave to find late-night ramen joints around Union Square, San Francisco, with ratings and opening hours.",
    "brave-search/brave_local_search",
  ],
  [
    "f3-executed-nda-final-pdf",
    "The NDA in envelope 7f3a92bc-1d4e is fully executed; grab the final PDF plus the audit certificate for our records.",
    "docusign/download_signed_document",
  ],
  [
    "f3-call-off-scheduling-slot",
    "Someone grabbed a slot via my scheduling page (uuid 3fa85f64-5717) — call it off and let them know I'm out sick.",
    "calendly/cancel_event",
  ],
  [
    "f3-kanban-snapshot-before-standup",
    "Give me a snapshot of everything on kanban 5f2b9c — each column and what's sitting in it — before standup.",
    "trello/get_board",
  ],
  [
    "f3-mugs-returned-money-back",
    "Shop purchase #1043: buyer sent back 2 of the 3 mugs, so pay them back for those two and put them back into inventory.",
    "shopify/refund_order",
  ],
  [
    "f3-google-doc-full-text",
    "Give me everything written in Google Doc 1AbC9xYz so I can summarize our Q3 plan.",
    "google-drive/get_file_content",
  ],
  [
    "f3-github-sign-off-pr",
    "Sign off on PR 318 in acme/webapp on GitHub, leaving 'nice cleanup, ship it' as feedback.",
    "github/create_pull_request_review",
  ],
  [
    "f3-crm-duplicate-account-remove",
    "Get rid of the duplicate Acme Corp account 001Xx000003DGb2AAG in our CRM — it was created by mistake.",
    "salesforce/delete_record",
  ],
  [
    "f3-respond-under-deploy-announcement",
    "Respond in-thread to the deploy announcement (ts 1718900000.123456) in C04ABCD12: 'rollback finished, all green'.",
    "slack/slack_reply_to_thread",
  ],
  [
    "f3-who-got-paged-alert",
    "Who got paged for PagerDuty alert Q1W2E3R4, and what's happened on it since it fired?",
    "pagerduty/get_incident",
  ],
  [
    "f3-notion-page-feedback-thread",
    "What feedback have people left in the discussion on Notion page 1f2e3d4c-5b6a-7980-a1b2-c3d4e5f6a7b8?",
    "notion/API-retrieve-a-comment",
  ],
  [
    "f3-base-rows-mark-shipped",
    "In base appX1y2Z3, Inventory table, change status to 'Shipped' for rows recA1b2C3 and recD4e5F6.",
    "airtable/update_records",
  ],
  [
    "f3-commit-readme-fix-github",
    "Commit a corrected README.md to the docs branch of octocat/hello-world on GitHub with message 'fix typos'.",
    "github/create_or_update_file",
  ],
  [
    "f3-github-safari-login-bug",
    "Open a bug on GitHub in acme/api: login returns 500 on Safari; label it 'bug' and assign jdoe.",
    "github/create_issue",
  ],
  [
    "f3-register-new-payer",
    "Register Acme Ltd (billing contact jane@acme.io) as a new payer in our payments platform so we can charge them later; tag plan=pro.",
    "stripe/create_customer",
  ],
  [
    "f3-recurring-plans-behind",
    "Which recurring plans does cus_N8x2Lq have that are behind on payment?",
    "stripe/list_subscriptions",
  ],
  [
    "f3-revert-crashing-release",
    "The new checkout-api release in the prod namespace is crashing — revert it to the version before.",
    "kubernetes/rollout_undo",
  ],
  [
    "f3-hook-up-custom-hostname",
    "Hook up shop.example.com to our marketing-site project on Vercel and tell me what DNS entries to set.",
    "vercel/add_domain",
  ],
  [
    "f3-offboard-priya-resignation",
    "Mark Priya Shah (emp 4821) as leaving the company, finishing up March 28 2025, voluntary resignation.",
    "bamboohr/terminate_employee",
  ],
  [
    "f3-make-preview-live",
    "Preview dpl_8Kq2 for storefront looks good — make it the live site.",
    "vercel/promote_deployment",
  ],
  [
    "f3-fake-reduced-animations",
    "Check how the site renders for users who prefer reduced animations — fake that OS setting in the open tab.",
    "playwright/browser_emulate_media",
  ],
  [
    "f3-bump-workers-black-friday",
    "Bump worker-queue in namespace jobs up to 8 pods for the Black Friday surge.",
    "kubernetes/scale_deployment",
  ],
  [
    "f3-slow-checkout-calls",
    "Find calls to POST /checkout on payments-svc that took over 2 seconds in the last hour, so I can see where the time went.",
    "datadog/get_apm_traces",
  ],
  [
    "f3-datadog-api-errors-morning",
    "Pull Datadog logs for service:api status:error between 9 and 10am today.",
    "datadog/search_logs",
  ],
  [
    "f3-asana-q4-budget-todo",
    "In Asana, add 'Draft Q4 budget' to the Finance project for maria@corp.com, due Nov 15.",
    "asana/create_task",
  ],
  [
    "f3-discord-maintenance-announce",
    "Have the bot announce 'server maintenance at 10pm UTC' in our Discord #announcements channel (id 1122334455).",
    "discord/send_message",
  ],
  [
    "f3-is-alex-showing-green",
    "Is alex.kim@contoso.com showing green on Teams right now, or are they tied up?",
    "teams/get_presence",
  ],
  [
    "f3-power-on-build-boxes",
    "Power on the build boxes i-0abc1234 and i-0def5678 in us-east-1.",
    "aws/start_ec2_instance",
  ],
  [
    "f3-pricing-pages-plans-json",
    "Pull just the plan names and monthly prices from https://acme.com/pricing and https://rival.io/pricing as JSON.",
    "firecrawl/firecrawl_extract",
  ],
  [
    "f3-jira-pay-in-progress",
    "Which PAY tickets in Jira are still In Progress and assigned to me?",
    "jira/search_issues",
  ],
  [
    "f3-crashlooping-checkout-staging",
    "Anything crash-looping under app=checkout in staging? Show me what's running and where.",
    "kubernetes/get_pods",
  ],
  [
    "f3-slack-office-closed-friday",
    "Drop a note in Slack #general (C01234567) that the office is closed Friday.",
    "slack/slack_post_message",
  ],
  [
    "f3-salesforce-custom-project-entry",
    "Add a Project__c entry in Salesforce with Name 'Website Revamp' and Budget__c 50000.",
    "salesforce/create_record",
  ],
  [
    "f3-hubspot-globex-msa-approved",
    "Jot down on the Globex deal 8812 in HubSpot that legal approved the MSA today.",
    "hubspot/create_note",
  ],
  [
    "f3-lost-authenticator-new-phone",
    "Maria got a new phone and lost her authenticator app — make her redo her 2FA setup from scratch (id 00u1abcd).",
    "okta/reset_factors",
  ],
  [
    "f3-orders-table-structure",
    "What's the structure of ANALYTICS.PUBLIC.ORDERS in Snowflake — which fields, and what kind of data each holds?",
    "snowflake/describe_table",
  ],
  [
    "f3-discord-game-night",
    "Set up a community game night on our Discord guild 9988776655 for Friday 8pm UTC in voice channel 5566778899.",
    "discord/create_scheduled_event",
  ],
  [
    "f3-whats-in-api-folder",
    "What's in /home/dev/projects/api on this machine? Just the top level, no sizes.",
    "filesystem/list_directory",
  ],
  [
    "f3-wiki-postmortem-writeup",
    "Write up a new 'Incident Postmortem 2024-06-12' page in the ENG wiki space, under the Postmortems parent.",
    "confluence/create_page",
  ],
  ["f3-denver-height-sea-level", "How high above sea level is 39.7392, -104.9903?", "google-maps/maps_elevation"],
  [
    "f3-teams-call-ana-raj",
    "Set up a Teams call with ana@contoso.com and raj@contoso.com tomorrow 2–3pm and send me the join link.",
    "teams/create_meeting",
  ],
];
