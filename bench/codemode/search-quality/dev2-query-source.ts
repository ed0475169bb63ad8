// The dev2 split: task queries written on 2026-12-06, after the dev split had been tuned on (the ranker ranked 78.8 %
// of its queries first against 64.8 % of the held-out ones), to measure and tune on without looking at the
// held-out split. Four writers, blind to the ranker, the repository and every other query, each wrote one query per
// tool for a quarter of 200 tools drawn at random from the 324 that no dev query is for (Python
// random.Random(20261207).sample), with only the tools' definitions and the catalog's one-line descriptions to check
// near-rivals; at least half of each writer's queries share no content word with their tool, and the product is named
// only where several servers offer the operation. Not edited to suit a ranker; build-dataset.ts adds the split
// ("dev2") and the lexical flag.
export const DEV2_QUERY_SOURCE: [id: string, query: string, expected: string][] = [
  [
    "e1-research-agent-job-done",
    "I kicked off a web research agent earlier, job 550e8400-e29b-41d4-a716-446655440000. Is it finished yet, and what did it find?",
    "firecrawl/firecrawl_agent_status",
  ],
  [
    "e1-count-refunded-orders-postgres",
    "How many rows in the orders table of our Postgres db have status 'refunded' since March 1? Just need a SELECT count.",
    "postgres/query",
  ],
  [
    "e1-rate-useless-web-search",
    "That web search I just ran (id 0193f6c5-1234-7890-abcd-1234567890ab) was mostly useless, nothing on enterprise pricing; tell Firecrawl so we get a credit back.",
    "firecrawl/firecrawl_search_feedback",
  ],
  [
    "e1-nest-doc-under-wiki",
    "Put the Notion doc 'Q3 Offsite Notes' underneath our Team Wiki instead of leaving it at the workspace root.",
    "notion/API-move-page",
  ],
  [
    "e1-fold-duplicate-support-requests",
    "Customer sent the same complaint three times, so fold support requests #48211 and #48215 into #48190 and keep that one.",
    "zendesk/merge_tickets",
  ],
  [
    "e1-bump-eng-priority-linear",
    "Bump ENG-342 to urgent priority in Linear and hand it over to Priya.",
    "linear/update_issue",
  ],
  ["e1-set-story-points-jira", "Set story points to 3 and the fix version to v2.4 on PROJ-1287.", "jira/update_issue"],
  [
    "e1-commit-several-files-gitlab",
    "Commit README.md, .gitlab-ci.yml and src/config.yaml together to the develop branch of group/backend-api on GitLab in one go.",
    "gitlab/push_files",
  ],
  [
    "e1-nested-layout-project-folder",
    "Give me the full nested layout of everything under /home/dev/project, every subfolder down to the bottom, but ignore node_modules.",
    "filesystem/directory_tree",
  ],
  [
    "e1-compose-file-release-branch",
    "What's in docker-compose.yml on the release-1.8 branch of the infra/platform repo on GitLab?",
    "gitlab/get_file_contents",
  ],
  [
    "e1-ci-builds-checkout-service",
    "Have the CI builds been passing lately for acme-team/checkout-service on Bitbucket?",
    "bitbucket/list_pipelines",
  ],
  [
    "e1-mark-prospect-enterprise-trial",
    "Mark prospect 5f2a9c1e with 'enterprise-trial' in Intercom so sales can segment them later.",
    "intercom/tag_contact",
  ],
  [
    "e1-which-squads-in-linear",
    "Which squads are set up in Linear, and what are their keys? I need one before filing a ticket.",
    "linear/list_teams",
  ],
  [
    "e1-report-bad-pdf-parse",
    "The PDF parse job 7c1e9a20-4b1d-4e2f-9a3c-2d5f8e6b1a77 mangled the tables on pages 4-6; send Firecrawl a bad rating with issue code bad_pdf_parse.",
    "firecrawl/firecrawl_feedback",
  ],
  [
    "e1-raw-delete-acme-webhook",
    "Hit the Acme backend directly with a DELETE on /v2/webhooks/77, since there isn't a specific command for that.",
    "acme/api",
  ],
  [
    "e1-merged-prs-mobile-app",
    "Which PRs got merged in the mobile-app repo of the acme workspace on Bitbucket?",
    "bitbucket/list_pull_requests",
  ],
  [
    "e1-find-globex-people-crm",
    "Find everyone in HubSpot who works at Globex and has a gmail.com address.",
    "hubspot/search_contacts",
  ],
  [
    "e1-tail-server-log",
    "What are the most recent 50 entries at the end of /var/log/app/server.log?",
    "filesystem/read_text_file",
  ],
  [
    "e1-custom-playwright-pagination-script",
    "Run my own Playwright snippet that uses page.getByRole to click 'Next' until it's disabled and returns every row's text.",
    "playwright/browser_run_code_unsafe",
  ],
  [
    "e1-ship-branch-to-prod",
    "Ship the release/2.3 branch of marketing-site live to the prod environment on Vercel.",
    "vercel/create_deployment",
  ],
  [
    "e1-cpu-per-host-yesterday",
    "What was average CPU per host on the api service between 2pm and 4pm yesterday, according to Datadog?",
    "datadog/query_metrics",
  ],
  [
    "e1-which-integration-account-notion",
    "Which integration account is this Notion connection signed in as? I want to confirm the token works.",
    "notion/API-get-self",
  ],
  [
    "e1-hold-until-order-confirmed",
    "Hold on until the 'Order confirmed' message shows up on the page before doing anything else.",
    "playwright/browser_wait_for",
  ],
  [
    "e1-pull-row-onto-folder",
    "In the browser tab, grab the 'Q3 report' row and pull it onto the 'Archived' folder in the sidebar.",
    "playwright/browser_drag",
  ],
  [
    "e1-webinar-signups-since-monday",
    "Who filled out our webinar signup form (GUID 3f9a1c2e-7b4d-4e8a-b6c1-0d2e9f8a7b6c) since Monday, October 7?",
    "hubspot/get_form_submissions",
  ],
  [
    "e1-catch-up-discord-chatter",
    "Catch me up on what people have been saying in Discord channel 1123456789012345678, the last 50 posts.",
    "discord/read_messages",
  ],
  [
    "e1-grab-budget-tab-figures",
    "Grab B2:F40 on the Budget tab of Google sheet 1AbCdEfGh123 so I can check the Q2 totals.",
    "google-sheets/read_range",
  ],
  [
    "e1-user-segments-how-big",
    "What user segments have we defined in Mixpanel, and how many people are in each?",
    "mixpanel/list_cohorts",
  ],
  [
    "e1-apply-wire-to-invoices",
    "Acme Corp just wired us $4,250 on Oct 3; apply it against invoices 1043 and 1051 in QuickBooks.",
    "quickbooks/record_payment",
  ],
  [
    "e1-store-deploy-token-ci",
    "Store our new DEPLOY_TOKEN value so the CI workflows in octo-org/web-app can use it without exposing it.",
    "github-actions/set_secret",
  ],
  [
    "e1-inspect-single-notion-block",
    "Fetch the single Notion block 9bc30ad4-9373-46a5-84ab-0a7845ee52e6 to see its type and text, not its children.",
    "notion/API-retrieve-a-block",
  ],
  [
    "e1-fix-hr-profile-transfer",
    "Sarah Chen (id 4521) moved to Finance as Senior Analyst, so fix her HR profile.",
    "bamboohr/update_employee",
  ],
  [
    "e1-process-november-paychecks",
    "Process paychecks for everyone covering November 1 through 15, with money landing on the 20th.",
    "gusto/run_payroll",
  ],
  [
    "e1-cash-ready-to-payout",
    "How much cash is ready to pay out from our card processor today, and how much is still on hold?",
    "stripe/retrieve_balance",
  ],
  [
    "e1-close-github-issue-wontfix",
    "Close issue #214 in octocat/hello-world on GitHub and add the 'wontfix' label.",
    "github/update_issue",
  ],
  [
    "e1-thumbsup-post-acknowledge",
    "Drop a thumbsup on the post at ts 1712345678.000200 in channel C024BE91L to acknowledge it.",
    "slack/slack_add_reaction",
  ],
  [
    "e1-vegan-spots-near-coordinates",
    "Using Google, find vegan restaurants within 2 km of 40.7128,-74.0060.",
    "google-maps/maps_search_places",
  ],
  [
    "e1-preprints-speculative-decoding",
    "Hunt for academic preprints about speculative decoding for speeding up LLM inference, 2024 onward.",
    "firecrawl/firecrawl_research_search_papers",
  ],
  [
    "e1-title-timezone-member",
    "What's the job title, timezone and email for workspace member U04ABCD123?",
    "slack/slack_get_user_profile",
  ],
  [
    "e1-store-alice-acme-links",
    "Store the connections in memory: Alice works_at Acme, and Acme owns Project Phoenix.",
    "memory/create_relations",
  ],
  [
    "e1-globex-deal-closed-won",
    "Mark the Globex deal 006Dn000004XyZ as Closed Won for $85k, expected to close Oct 31, in Salesforce.",
    "salesforce/update_opportunity_stage",
  ],
  [
    "e1-rule-medium-newsletters",
    "Set up a rule so future emails from newsletters@medium.com skip my inbox and get tagged 'Reading'.",
    "gmail/create_filter",
  ],
  [
    "e1-lighthouse-blog-banner-art",
    "Create artwork for our blog banner: a lighthouse at dusk, realistic-looking, wide format.",
    "everart/generate_image",
  ],
  [
    "e1-ups-collect-packages",
    "Have UPS come collect our packages from 500 Market St, San Francisco tomorrow between 1 and 4pm.",
    "shippo/schedule_pickup",
  ],
  [
    "e1-open-error-screenshot",
    "Open the screenshot at /home/me/Desktop/error.png so you can see what it shows.",
    "filesystem/read_media_file",
  ],
  [
    "e1-zoom-calls-with-recordings",
    "Which Zoom calls from Oct 7 to Oct 11 have saved videos I can rewatch?",
    "zoom/list_recordings",
  ],
  [
    "e1-texts-with-number",
    "Show the texts we've exchanged with +1 415 555 0132 since September 1.",
    "twilio/list_messages",
  ],
  [
    "e1-open-prs-against-main",
    "Which open PRs target the main branch in facebook/react, sorted by most recently updated?",
    "github/list_pull_requests",
  ],
  [
    "e1-watch-competitor-pricing",
    "Keep an eye on https://competitor.com/pricing and email me at ops@example.com whenever their plans or prices change.",
    "firecrawl/firecrawl_monitor_create",
  ],
  ["e1-apps-user-provisioned", "Which tools can 00u1abcd2EFGH3ijk4 sign into through Okta SSO?", "okta/list_user_apps"],
  [
    "e2-prepaid-postage-send-back",
    "The customer wants to send back what we shipped under shp_7f3a21; get them prepaid postage so they can mail it to our warehouse.",
    "shippo/create_return_label",
  ],
  [
    "e2-new-store-listing-socks",
    "Add a new listing to our online store: 'Merino Crew Socks' by Woolly Co, sizes S/M/L at $18 each, photo at https://cdn.example.com/socks1.jpg.",
    "shopify/create_product",
  ],
  [
    "e2-click-ok-confirm-popup",
    "An 'Are you sure you want to leave?' confirm popup just showed up in the browser; click OK on it so the automation can continue.",
    "playwright/browser_handle_dialog",
  ],
  [
    "e2-demo-resource-links",
    "Give me 5 sample resource links of different types so I can test how my MCP client renders them.",
    "everything/get-resource-links",
  ],
  [
    "e2-helpdesk-request-login",
    "Log a new helpdesk request from jane.doe@acme-corp.com saying she can't sign in after resetting her password, and flag it urgent.",
    "zendesk/create_ticket",
  ],
  [
    "e2-visitors-on-site-now",
    "How many visitors are browsing our site at this very moment, and where are they coming from? Property 312456789.",
    "google-analytics/run_realtime_report",
  ],
  [
    "e2-pull-up-ticket-thread",
    "Pull up Zendesk ticket #48213 along with the whole back-and-forth between the customer and our agents.",
    "zendesk/get_ticket",
  ],
  [
    "e2-purge-spammer-guild",
    "Permanently remove spammer 882736451 from guild 1029384756 and wipe everything they posted in the past week.",
    "discord/ban_member",
  ],
  [
    "e2-grab-all-docs-pages",
    "Grab the text of every page under https://docs.example.io/guides, up to 50 pages deep, so I can build a knowledge base from it.",
    "firecrawl/firecrawl_crawl",
  ],
  [
    "e2-slack-rooms-design-team",
    "Which public rooms exist in our Slack? I'm trying to find the one the design team uses.",
    "slack/slack_list_channels",
  ],
  [
    "e2-who-calls-function",
    "Which open-source projects call createClientWithRetry( in their TypeScript source? Show me the files.",
    "github/search_code",
  ],
  [
    "e2-end-plan-after-cycle",
    "Client on sub_1NqX8vLkdIwHu7ix wants out; stop their plan when the current billing cycle ends, not today.",
    "stripe/cancel_subscription",
  ],
  [
    "e2-billing-record-exists",
    "Do we already have a billing profile in Stripe for maria.gonzalez@fincorp.io before I make a new one?",
    "stripe/list_customers",
  ],
  [
    "e2-kb-howto-two-factor",
    "Check our Zendesk help center for a French how-to on resetting two-factor authentication that I can send a customer.",
    "zendesk/search_help_center",
  ],
  [
    "e2-bitbucket-propose-merge",
    "On Bitbucket, propose merging feature/payment-retry into main in acme-team/checkout-service and ask Priya to review.",
    "bitbucket/create_pull_request",
  ],
  [
    "e2-fresh-32-char-secret",
    "I need a fresh 32-character secret with special characters for the new database admin account.",
    "1password/generate_password",
  ],
  [
    "e2-dependency-holding-up",
    "Record that PAY-512 is holding up PAY-498 so the dependency shows on both tickets.",
    "jira/link_issues",
  ],
  [
    "e2-pr-approved-yet",
    "Has anyone approved or requested changes on PR #341 in octo-org/web-app yet?",
    "github/get_pull_request_reviews",
  ],
  [
    "e2-kill-hanging-job-run",
    "Kill run #1287 of the nightly-integration job in Jenkins, it's been hanging for two hours.",
    "jenkins/abort_build",
  ],
  [
    "e2-remind-insurance-todoist",
    "Remind me to renew the car insurance next Friday at 9am; put it in my Todoist as top priority.",
    "todoist/add_task",
  ],
  [
    "e2-rain-lisbon-next-days",
    "Will it rain in Lisbon over the next few days? I'm planning an outdoor shoot for the weekend.",
    "openweather/get_forecast",
  ],
  [
    "e2-acme-item-wdg4471",
    "What do we have on record for item WDG-4471 in Acme? I just need that single one.",
    "acme/get_widget",
  ],
  [
    "e2-analytics-sites-ids",
    "Which Google Analytics sites am I able to pull data from? I need the numeric ID for the shop.",
    "google-analytics/list_properties",
  ],
  [
    "e2-pull-into-iteration",
    "Pull PAY-601, PAY-604 and PAY-610 into sprint 142 so the team picks them up next iteration.",
    "jira/move_issues_to_sprint",
  ],
  [
    "e2-shut-down-staging-boxes",
    "Shut down the staging boxes i-0a1b2c3d4e5f67890 and i-0f9e8d7c6b5a43210 in us-east-1 overnight to save money.",
    "aws/stop_ec2_instance",
  ],
  [
    "e2-locate-order-confirmed",
    "In the open browser tab, locate where 'Order confirmed' appears and give me that element's ref without dumping the whole tree.",
    "playwright/browser_find",
  ],
  [
    "e2-pr-title-author-state",
    "Show me the title, description, author and merge state of PR #1204 in vercel/next.js.",
    "github/get_pull_request",
  ],
  [
    "e2-word-for-word-call",
    "I need the word-for-word text of what people said on yesterday's call 86422159087.",
    "zoom/get_meeting_transcript",
  ],
  [
    "e2-eating-disk-space",
    "What's eating disk space in /home/dev/projects/logs? Show what's in there, biggest first.",
    "filesystem/list_directory_with_sizes",
  ],
  [
    "e2-hubspot-globex-renewal",
    "Add a $45,000 opportunity 'Globex Q3 renewal' to our HubSpot sales pipeline at the proposal stage, tied to contact 5012.",
    "hubspot/create_deal",
  ],
  [
    "e2-hand-over-ops233",
    "Hand OPS-233 over to Marcus (account 5b10ac8d82e05b22cc7d4ef5) since I'm out next week.",
    "jira/assign_issue",
  ],
  [
    "e2-pagerduty-alert-hookups",
    "Give me an inventory of all the systems we get paged for in PagerDuty and whether each one's alert hookup is actually wired.",
    "pagerduty/list_services",
  ],
  [
    "e2-gitlab-copy-terraform",
    "Make my own copy of the GitLab project infra/terraform-modules under jdoe so I can experiment without touching the original.",
    "gitlab/fork_repository",
  ],
  [
    "e2-bounce-checkout-api",
    "Bounce the checkout-api pods in prod one at a time so they pick up the new config map, no downtime.",
    "kubernetes/rollout_restart",
  ],
  [
    "e2-pause-site-watcher",
    "Pause the site-change watcher mon_7Kp2xQ for now; we don't want alerts during the redesign.",
    "firecrawl/firecrawl_monitor_update",
  ],
  [
    "e2-push-yaml-staging",
    "Push this YAML for a new ConfigMap and Service into the staging namespace on the cluster, doing a dry run first.",
    "kubernetes/apply_manifest",
  ],
  [
    "e2-trello-footer-todo",
    "Add 'Fix footer links on pricing page' to the To Do column (list 5f8a1c2e9b) on our Trello board, due Oct 15.",
    "trello/create_card",
  ],
  [
    "e2-hr-record-4021",
    "Pull the HR record for person #4021: role, team, boss and start day.",
    "bamboohr/get_employee",
  ],
  [
    "e2-bump-onhand-brooklyn",
    "We just got 40 more of item 808950810 in at the Brooklyn warehouse 655441491; bump the on-hand count.",
    "shopify/update_inventory",
  ],
  [
    "e2-ms-teams-engineering-rooms",
    "What channels are in our Engineering team on Microsoft Teams (team id 8f3c2d1e-4b5a-4c3d-9e8f-1a2b3c4d5e6f)?",
    "teams/list_channels",
  ],
  [
    "e2-save-settings-yaml",
    "Save this config text to /srv/app/config/settings.yaml, replacing whatever is already there.",
    "filesystem/write_file",
  ],
  [
    "e2-informal-german-phrase",
    "How do you say 'Your order has shipped and will arrive Tuesday' in informal German?",
    "deepl/translate_text",
  ],
  [
    "e2-pending-waiting-engineering",
    "Set ticket 48213 to pending and tell the customer we're waiting on engineering.",
    "zendesk/update_ticket",
  ],
  [
    "e2-nda-signed-in-order",
    "Get the NDA at https://files.acme.com/nda-2024.pdf signed by bob@partner.com and then carol@acme.com, in that order.",
    "docusign/send_envelope",
  ],
  [
    "e2-inline-remarks-pr341",
    "Read me the inline remarks reviewers left on specific lines of the diff in PR #341 of octo-org/web-app.",
    "github/get_pull_request_comments",
  ],
  [
    "e2-book-google-meet-sync",
    "Book a Google Meet with ana@acme.com and li@acme.com next Tuesday 2–3pm titled 'Q3 roadmap sync'.",
    "google-calendar/create_event",
  ],
  [
    "e2-net-income-q2-accrual",
    "How much did we net in Q2 2024, income minus expenses, on an accrual basis?",
    "quickbooks/get_profit_and_loss",
  ],
  [
    "e2-when-index-last-changed",
    "When was /var/www/html/index.html last changed, how big is it, and who owns it?",
    "filesystem/get_file_info",
  ],
  [
    "e2-unread-from-boss-week",
    "Dig up any unread mail from boss@example.com received in the last 7 days in my Google inbox.",
    "gmail/search_emails",
  ],
  [
    "e2-build-stability-321",
    "How stable is build 3.2.1 of our ios-app in Sentry: what share of sessions ended without a crash? Org acme.",
    "sentry/get_release_health",
  ],
  [
    "e3-xhr-calls-since-load",
    "Which XHR and fetch calls has the site fired off after I opened it? Just the ones hitting /api/orders.",
    "playwright/browser_network_requests",
  ],
  [
    "e3-proofread-paragraph-typos",
    "Can you proofread this before I send it: 'Their going to recieve the package tommorow, weather or not its raining.'",
    "languagetool/check_grammar",
  ],
  [
    "e3-file-jira-safari-bug",
    "File a high-priority bug in Jira project PAY: the checkout button does nothing on Safari 17.",
    "jira/create_issue",
  ],
  [
    "e3-open-draft-mr",
    "Open an MR from feature/login-rate-limit into main in infra/auth-service and flag it as WIP so nobody merges it yet.",
    "gitlab/create_merge_request",
  ],
  [
    "e3-latlong-for-street",
    "What are the lat/long for 1600 Amphitheatre Parkway, Mountain View, CA 94043?",
    "google-maps/maps_geocode",
  ],
  [
    "e3-marketing-staff-austin",
    "Who's on the marketing team based in our Austin office? I need a staff list with names.",
    "bamboohr/search_employees",
  ],
  [
    "e3-notion-collection-schema",
    "Pull up the property schema of Notion data source 8a1c2e4f-5b6d-4e7f-9a0b-1c2d3e4f5a6b, just its structure, not the entries.",
    "notion/API-retrieve-a-data-source",
  ],
  [
    "e3-stripe-pro-plan-item",
    "Set up a 'Pro Plan' offering in Stripe so I can hang monthly and yearly rates on it later.",
    "stripe/create_product",
  ],
  [
    "e3-watcher-failed-executions",
    "Pull the last 10 failed executions of my website change watcher mon_7f3k2 so I can see what went wrong.",
    "firecrawl/firecrawl_monitor_checks",
  ],
  [
    "e3-support-queues-sizes",
    "How many support requests are sitting in each of my saved queues right now?",
    "zendesk/list_views",
  ],
  [
    "e3-pto-days-left",
    "How many PTO days has staffer #4821 got left as of 2025-12-01?",
    "bamboohr/get_time_off_balance",
  ],
  [
    "e3-unique-email-mongo",
    "Lookups by email in the Mongo users collection of appdb are crawling; add a unique index on that field.",
    "mongodb/create_index",
  ],
  [
    "e3-shut-down-headless",
    "We're finished scraping, so shut down the headless Chrome session.",
    "playwright/browser_close",
  ],
  [
    "e3-revenue-per-customer-mongo",
    "Using $group and $sum on shop.orders in Mongo, total up revenue per customerId and sort highest first.",
    "mongodb/aggregate",
  ],
  [
    "e3-blast-spring-newsletter",
    "Our spring newsletter (id 9f8e7d) is ready; blast it to the audience on Monday March 3rd at 9:00 ET.",
    "mailchimp/send_campaign",
  ],
  [
    "e3-crashed-pod-output",
    "checkout-api-7d9f-xk2 in the prod namespace keeps crashing. Show me the last 200 lines it printed before the restart.",
    "kubernetes/get_pod_logs",
  ],
  [
    "e3-outlook-planning-teams",
    "Put 'Q3 planning' on my Outlook calendar Thursday 2 to 3pm with a Teams link and invite ana@contoso.com.",
    "outlook/create_calendar_event",
  ],
  [
    "e3-js-button-colour",
    "Using Playwright, run a little JS against the Submit button to read its computed background colour.",
    "playwright/browser_evaluate",
  ],
  [
    "e3-intercom-refund-went-through",
    "In Intercom thread 48213, tell the user their refund went through today and should land in 3-5 days.",
    "intercom/reply_to_conversation",
  ],
  [
    "e3-nightly-release-green",
    "Did run #512 of nightly-release in Jenkins go green, and how long did it take?",
    "jenkins/get_build_status",
  ],
  [
    "e3-away-notice-august",
    "I'm away Aug 4 to 15; add an away notice on my mailbox pointing folks to jo@acme.com meanwhile.",
    "outlook/set_automatic_replies",
  ],
  [
    "e3-wiki-top-level-areas",
    "What top-level areas exist in our team wiki? I want their keys to decide where to put the new docs.",
    "confluence/list_spaces",
  ],
  [
    "e3-ticket-replies-private-notes",
    "Show all public replies and private agent notes on support ticket #88412.",
    "zendesk/list_ticket_comments",
  ],
  [
    "e3-enter-search-box",
    "In Playwright, put 'wireless headphones' in the site's search box and hit Enter.",
    "playwright/browser_type",
  ],
  [
    "e3-q2-pipeline-region-numbers",
    "Pull the numbers from our saved 'Q2 Pipeline by Region' report in Salesforce (00O5e000008abcD), with detail rows.",
    "salesforce/get_report",
  ],
  [
    "e3-freelancer-logo-1800",
    "Send $1,800 to our freelance designer (id c-2231) for the logo redesign, dated June 30.",
    "gusto/add_contractor_payment",
  ],
  [
    "e3-checkout-latency-board",
    "Build a Datadog board showing p95 latency and error rate for checkout-service, laid out in a grid.",
    "datadog/create_dashboard",
  ],
  [
    "e3-marts-objects-sizes",
    "What objects live in ANALYTICS.MARTS on our warehouse, and how big is each one?",
    "snowflake/list_tables",
  ],
  [
    "e3-outlook-invoices-folder-emails",
    "Show me the 20 latest emails in my Outlook 'Invoices' folder.",
    "outlook/list_messages",
  ],
  [
    "e3-mkdir-scaffold-path",
    "On the local disk, mkdir -p /home/dev/app/src/components/ui so the scaffold script can write there.",
    "filesystem/create_directory",
  ],
  [
    "e3-remove-site-watcher",
    "Get rid of the site watcher mon_abc123 for good; we don't need those recurring scrapes anymore.",
    "firecrawl/firecrawl_monitor_delete",
  ],
  [
    "e3-drive-doc-finance-folder",
    "Put Drive doc 1AbCxyz789 into the 'Finance 2025' folder (id 0BfolderQ42).",
    "google-drive/move_file",
  ],
  [
    "e3-discord-side-discussion",
    "Branch off a side discussion named 'release-bugs' under post 1122334455 in Discord's #dev (id 99887766).",
    "discord/create_thread",
  ],
  [
    "e3-linear-note-staging-fix",
    "Drop a note on Linear ticket ENG-42 saying the fix is deployed to staging.",
    "linear/create_comment",
  ],
  [
    "e3-react-issue-details",
    "Pull up issue #1287 in facebook/react on GitHub; what does it say and who's assigned?",
    "github/get_issue",
  ],
  [
    "e3-notion-member-by-uuid",
    "Who is the Notion member with id 3f9a1c2e-7b4d-4e8a-9c1f-2d3e4f5a6b7c? Need their name and email.",
    "notion/API-get-user",
  ],
  [
    "e3-close-out-pd-alert",
    "The db failover is fixed; close out PagerDuty alert P7X9Q2K with note 'replica promoted, latency normal'.",
    "pagerduty/resolve_incident",
  ],
  ["e3-tick-off-todoist", "Tick off Todoist item 7890123456, I've finished it.", "todoist/close_task"],
  [
    "e3-who-we-owe-qbo",
    "In QuickBooks, who do we buy from and what do we currently owe each of them?",
    "quickbooks/list_vendors",
  ],
  [
    "e3-overdue-qbo-customer",
    "Which QuickBooks invoices for customer 58 are overdue, dated since January 1, 2025?",
    "quickbooks/list_invoices",
  ],
  [
    "e3-trello-card-done",
    "Shift Trello card 5f3a9c into the Done column (list 64b2c1) now that it's shipped.",
    "trello/move_card",
  ],
  [
    "e3-hubspot-contract-sent-deals",
    "Show the HubSpot deals in the 'Contract Sent' stage owned by rep 90210.",
    "hubspot/list_deals",
  ],
  [
    "e3-cname-entries-example",
    "What CNAME entries are configured for example.com on Cloudflare right now?",
    "cloudflare/list_dns_records",
  ],
  [
    "e3-stripe-net30-bill",
    "Start a Stripe invoice for customer cus_Q1w2E3 that gets emailed to them with net-30 terms.",
    "stripe/create_invoice",
  ],
  [
    "e3-whatsapp-order-shipped",
    "WhatsApp +14155550123 to let them know their order #5531 has shipped.",
    "whatsapp/send_message",
  ],
  [
    "e3-which-google-calendars",
    "Which calendars can I see in Google Calendar: work, shared team ones, holidays?",
    "google-calendar/list_calendars",
  ],
  [
    "e3-private-gitlab-billing-svc",
    "Spin up a new private GitLab project called billing-svc with a README.",
    "gitlab/create_repository",
  ],
  [
    "e3-return-before-link",
    "Return the Playwright tab to where it was before I clicked that link.",
    "playwright/browser_navigate_back",
  ],
  [
    "e3-linear-onboarding-at-risk",
    "Post a weekly status on Linear project 'Mobile Onboarding', marked at risk because of API delays.",
    "linear/create_project_update",
  ],
  [
    "e3-datadog-p99-alert",
    "Set up a Datadog rule that pings @slack-oncall when checkout-service p99 latency goes over 800ms.",
    "datadog/create_monitor",
  ],
  [
    "e4-silence-flaky-datadog-check",
    "Stop Datadog check 48213 from paging anyone through Friday 09:00 UTC; it's a known false alarm.",
    "datadog/mute_monitor",
  ],
  [
    "e4-puppeteer-mouseover-nav-menu",
    "In the Puppeteer session, move the mouse over #menu-products so its dropdown shows up.",
    "puppeteer/puppeteer_hover",
  ],
  [
    "e4-point-blog-subdomain-cname",
    "Point blog.example.com at example.ghost.io via Cloudflare zone 3f9a1c7e, with the orange cloud on.",
    "cloudflare/create_dns_record",
  ],
  [
    "e4-ga4-sessions-by-country",
    "Google Analytics property 312456789: sessions and active users per country for the past 30 days?",
    "google-analytics/run_report",
  ],
  [
    "e4-find-rust-http-repos",
    "Find popular open-source GitHub projects for async HTTP clients written in Rust.",
    "github/search_repositories",
  ],
  [
    "e4-jira-note-fix-on-staging",
    "On Jira ticket PAY-1423, post a note that the fix is on staging and ready for QA.",
    "jira/add_comment",
  ],
  [
    "e4-stash-twilio-api-key",
    "Stash the Twilio prod API key in our Engineering 1Password so the team can find it.",
    "1password/create_item",
  ],
  [
    "e4-raise-salary-from-july",
    "Bump Dana Ruiz (id emp_5521) to $92k annually beginning July 1, 2025.",
    "gusto/update_compensation",
  ],
  [
    "e4-is-ci-green-on-pr",
    "Is CI green on pull request 318 in acme/web-app so I can merge it?",
    "github/get_pull_request_status",
  ],
  [
    "e4-open-three-configs-together",
    "Open /srv/app/config.yaml, /srv/app/.env.example and /srv/app/docker-compose.yml at once so I can diff their settings side by side.",
    "filesystem/read_multiple_files",
  ],
  [
    "e4-playwright-mouseover-avatar",
    "In the Playwright tab, put the cursor on the Account avatar (ref e42 from the snapshot) to reveal its tooltip.",
    "playwright/browser_hover",
  ],
  [
    "e4-money-back-duplicate-charge",
    "Give the customer their money back for pi_3NfX2aLk9 in Stripe — it was a duplicate charge.",
    "stripe/create_refund",
  ],
  ["e4-deepl-quota-left", "How close are we to maxing out our DeepL plan quota this month?", "deepl/get_usage"],
  [
    "e4-mongo-analytics-db-contents",
    "What collections exist in the 'analytics' Mongo database?",
    "mongodb/list_collections",
  ],
  [
    "e4-papers-building-on-anchors",
    "Which later studies build on preprints 2305.10601 and 2210.03629, or cover similar ground, for LLM agent tool benchmarks?",
    "firecrawl/firecrawl_research_related_papers",
  ],
  [
    "e4-acme-stock-levels-all",
    "Show me SKUs and on-hand quantities for everything in the Acme widget inventory, 50 at a time.",
    "acme/list_widgets",
  ],
  [
    "e4-sentry-crash-traceback",
    "What blew up in Sentry crash 4172839? I need the backtrace and what the user did right before it.",
    "sentry/get_issue_details",
  ],
  [
    "e4-cut-feature-branch-github",
    "Cut a feature/checkout-v2 branch off develop in the acme/storefront GitHub repo.",
    "github/create_branch",
  ],
  [
    "e4-gmail-email-dont-send",
    "Write up an email to lena@northwind.io about the Q3 invoice in Gmail but don't send it — I want to review it first.",
    "gmail/create_draft",
  ],
  [
    "e4-temporary-s3-download-link",
    "Give me a 24-hour link so the auditor can grab acme-reports/2024/q4-financials.pdf from AWS without needing credentials.",
    "aws/s3_presign_url",
  ],
  [
    "e4-dropbox-replace-quarterly-report",
    "Put quarterly-report.pdf into /Finance/2025 in Dropbox, replacing the old copy.",
    "dropbox/upload",
  ],
  [
    "e4-viewport-iphone-size",
    "Set the viewport to 375x812 so I can check how the site looks on an iPhone.",
    "playwright/browser_resize",
  ],
  [
    "e4-notion-relation-values-paginated",
    "In Notion, get all values of the 'Related tasks' relation (property id Xr%3F) on page 1f2e3d4c, it has over 25 items.",
    "notion/API-retrieve-a-page-property",
  ],
  [
    "e4-intercom-faq-2fa-reset",
    "Write a how-to called 'Resetting 2FA' for our Intercom knowledge base and make it live.",
    "intercom/create_article",
  ],
  [
    "e4-pdf-contract-to-markdown",
    "Turn the PDF at /home/me/contracts/msa-2024.pdf into markdown so I can pull out the termination clause.",
    "firecrawl/firecrawl_parse",
  ],
  [
    "e4-arxiv-abstract-and-authors",
    "Get me the full abstract, author list and categories for arXiv 2401.04088.",
    "firecrawl/firecrawl_research_inspect_paper",
  ],
  [
    "e4-notion-doc-metadata",
    "Look up Notion doc 8a7b6c5d-1234-4e5f-9abc-0def12345678 and tell me its properties, parent and when it was last edited.",
    "notion/API-retrieve-a-page",
  ],
  [
    "e4-give-maria-edit-access",
    "Give maria@acme.com edit access to the Google Drive folder 1AbC2dEf so she can drop files in.",
    "google-drive/share_file",
  ],
  [
    "e4-recall-alice-and-falcon",
    "What do we have stored in memory about exactly 'Alice Chen' and 'Project Falcon'? Fetch those two entities.",
    "memory/open_nodes",
  ],
  [
    "e4-summer20-checkout-promo",
    "Set up checkout promo SUMMER20 for the store, tied to price rule 1098234.",
    "shopify/create_discount_code",
  ],
  ["e4-is-acme-down", "Is Acme down? Check whether the backend and its databases are responding.", "acme/health"],
  [
    "e4-remember-alice-prefers-slack",
    "Remember that Alice Chen now prefers Slack over email and moved to the Berlin office — note it alongside what we know about her.",
    "memory/add_observations",
  ],
  [
    "e4-page-oncall-checkout-502s",
    "Open a high-urgency PagerDuty alert on checkout-api (PXYZ123): payments are failing with 502s.",
    "pagerduty/create_incident",
  ],
  [
    "e4-files-under-logs-prefix",
    "What keys live beneath logs/2025/03/ in acme-data-lake on AWS?",
    "aws/s3_list_objects",
  ],
  [
    "e4-jenkins-nightly-failure-output",
    "Why did nightly-integration #217 fail on Jenkins? Show me everything it printed.",
    "jenkins/get_build_log",
  ],
  [
    "e4-asana-initiative-health-checkin",
    "How's Asana initiative 1203344556 tracking — on track or at risk? Give me the most recent check-in.",
    "asana/get_project_status",
  ],
  [
    "e4-recent-pushes-release-branch",
    "What's been pushed to the release/2.4 branch of acme/api lately? Show me the commit history.",
    "github/list_commits",
  ],
  [
    "e4-clients-past-due-buckets",
    "Which clients are behind on paying us, split into 30/60/90 tiers of lateness, as of March 31, 2025?",
    "quickbooks/get_aged_receivables",
  ],
  [
    "e4-invoice-object-columns-dropdowns",
    "Before building a Salesforce report, what columns and dropdown choices does the custom Invoice__c entity have?",
    "salesforce/describe_object",
  ],
  [
    "e4-open-bugs-mobile-repo",
    "Show open tickets labeled 'bug' in acme/mobile-app on GitHub, newest first.",
    "github/list_issues",
  ],
  [
    "e4-open-chats-admin-5829",
    "Which customer chats are still open and assigned to admin 5829 in Intercom?",
    "intercom/list_conversations",
  ],
  [
    "e4-forget-alice-berlin-fact",
    "Forget the fact that Alice Chen works in Berlin — that's outdated — but keep everything else about her.",
    "memory/delete_observations",
  ],
  [
    "e4-who-has-pager-weekend",
    "Who's carrying the pager for the Platform team this weekend, Saturday through Sunday?",
    "pagerduty/list_oncalls",
  ],
  [
    "e4-stripe-ten-dollar-promo",
    "Set up a one-time $10 USD discount in Stripe for win-back customers.",
    "stripe/create_coupon",
  ],
  [
    "e4-hot-leads-airtable-rows",
    "Pull every row from the 'Leads' table in base appX7k2Lm where Status is 'Hot'.",
    "airtable/list_records",
  ],
  [
    "e4-add-daily-sales-line",
    "Add today's sales figures as a new line at the bottom of the 'Daily Sales' tab in spreadsheet 1BxiMVs0XRA5.",
    "google-sheets/append_rows",
  ],
  [
    "e4-vendor-countersigned-contract",
    "Has the vendor countersigned the contract I sent out for e-signature (id 4f1c2d3e-9a8b-4c7d-b6e5-123456789abc)?",
    "docusign/get_envelope_status",
  ],
  [
    "e4-unshipped-shop-purchases",
    "Which shop purchases since June 1 are still open and haven't shipped yet?",
    "shopify/list_orders",
  ],
  [
    "e4-clear-cdn-pricing-page",
    "Clear the CDN copy of https://www.example.com/pricing and /styles/main.css so visitors see the new version.",
    "cloudflare/purge_cache",
  ],
  [
    "e4-tag-confluence-runbook",
    "Tag Confluence page 884422 with 'runbook' and 'on-call' so it shows up in our index.",
    "confluence/add_label",
  ],
];
