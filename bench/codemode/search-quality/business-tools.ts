// Realistic tools of business servers, written the way real MCP servers write them (snake_case names,
// one-paragraph descriptions, JSON Schemas with described arguments). Near-duplicates are deliberate: issue
// trackers (jira, linear, github), CRMs (salesforce, hubspot), chat (discord, whatsapp, teams) and mail
// (gmail, outlook) offer the same verbs on the same objects, so only the server or a detail tells them apart.
import type { DatasetTool } from "./dataset";

// Argument mini-language: `s` string, `n` number, `i` integer, `b` boolean, `d` date, `t` date-time, `S` string
// array, `o` object, `e(a|b)` enum; a `!` after the type marks it required; the rest is the description.
type Args = Record<string, string>;
type Def = [name: string, description: string, args?: Args];

function property(spec: string): { schema: Record<string, unknown>; required: boolean } {
  const match = /^(e\([^)]*\)|[snibdtSo])(!?)\s*(.*)$/.exec(spec);
  if (!match) throw new Error(`bad argument spec: ${spec}`);
  const [, type, bang, description] = match as unknown as [string, string, string, string];
  const base: Record<string, unknown> = type.startsWith("e(")
    ? { type: "string", enum: type.slice(2, -1).split("|") }
    : type === "s"
      ? { type: "string" }
      : type === "n"
        ? { type: "number" }
        : type === "i"
          ? { type: "integer" }
          : type === "b"
            ? { type: "boolean" }
            : type === "d"
              ? { type: "string", format: "date" }
              : type === "t"
                ? { type: "string", format: "date-time" }
                : type === "S"
                  ? { type: "array", items: { type: "string" } }
                  : { type: "object", additionalProperties: true };
  return { schema: description ? { ...base, description } : base, required: bang === "!" };
}

function server(slug: string, defs: Def[]): DatasetTool[] {
  return defs.map(([name, description, args = {}]) => {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const [key, spec] of Object.entries(args)) {
      const { schema, required: isRequired } = property(spec);
      properties[key] = schema;
      if (isRequired) required.push(key);
    }
    return {
      server: slug,
      name,
      description,
      inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    };
  });
}

const PAGE: Args = {
  limit: "i Maximum number of results (1-100, default 25)",
  cursor: "s Pagination cursor from a previous response",
};

export const BUSINESS_TOOLS: DatasetTool[] = [
  ...server("salesforce", [
    [
      "soql_query",
      "Execute a SOQL query against the Salesforce org and return matching records.",
      { query: "s! SOQL query, e.g. SELECT Id, Name FROM Account LIMIT 10" },
    ],
    [
      "get_record",
      "Retrieve a single Salesforce record by object type and record ID.",
      {
        sobject: "s! SObject API name, e.g. Account, Contact, Opportunity",
        record_id: "s! 15 or 18 character record ID",
        fields: "S Fields to return",
      },
    ],
    [
      "create_record",
      "Create a new record of any standard or custom SObject type.",
      { sobject: "s! SObject API name", fields: "o! Field values keyed by API name" },
    ],
    [
      "update_record",
      "Update fields on an existing Salesforce record.",
      { sobject: "s! SObject API name", record_id: "s! Record ID", fields: "o! Field values to change" },
    ],
    [
      "delete_record",
      "Delete a Salesforce record. The record is moved to the recycle bin.",
      { sobject: "s! SObject API name", record_id: "s! Record ID" },
    ],
    [
      "create_lead",
      "Create a new lead with contact details and company.",
      {
        first_name: "s",
        last_name: "s! Last name",
        company: "s! Company",
        email: "s Email",
        lead_source: "s Origin of the lead, e.g. Web, Trade Show",
      },
    ],
    [
      "convert_lead",
      "Convert a qualified lead into an account, contact and optionally an opportunity.",
      {
        lead_id: "s! Lead ID",
        create_opportunity: "b Also create an opportunity (default true)",
        converted_status: "s! Converted lead status",
      },
    ],
    [
      "list_opportunities",
      "List opportunities filtered by stage, owner or close date.",
      {
        stage: "s Stage name, e.g. Prospecting, Closed Won",
        owner_id: "s Owner user ID",
        close_before: "d Close date upper bound",
        ...PAGE,
      },
    ],
    [
      "update_opportunity_stage",
      "Move an opportunity to another sales stage and optionally set its amount and close date.",
      {
        opportunity_id: "s! Opportunity ID",
        stage: "s! New stage name",
        amount: "n Amount",
        close_date: "d Expected close date",
      },
    ],
    [
      "log_activity",
      "Log a call, email or meeting as a completed task on a record's activity timeline.",
      {
        what_id: "s! Related record ID",
        subject: "s! Subject",
        type: "e(call|email|meeting)! Activity type",
        notes: "s Notes",
      },
    ],
    [
      "describe_object",
      "Describe an SObject: its fields, types, picklist values and relationships.",
      { sobject: "s! SObject API name" },
    ],
    [
      "search_records",
      "Full-text SOSL search across accounts, contacts, leads and opportunities.",
      { search: "s! Search text", objects: "S Objects to search (default all)" },
    ],
    [
      "get_report",
      "Run a saved Salesforce report and return its rows and aggregates.",
      { report_id: "s! Report ID", include_details: "b Include detail rows" },
    ],
  ]),
  ...server("hubspot", [
    [
      "search_contacts",
      "Search HubSpot contacts by email, name, company or any contact property.",
      { query: "s Free-text query", filters: "o Property filters", ...PAGE },
    ],
    [
      "get_contact",
      "Get a HubSpot contact by ID or email, with its properties and associations.",
      { contact_id: "s Contact ID", email: "s Contact email" },
    ],
    [
      "create_contact",
      "Create a contact in HubSpot CRM.",
      {
        email: "s! Email",
        firstname: "s First name",
        lastname: "s Last name",
        company: "s Company name",
        phone: "s Phone",
      },
    ],
    [
      "update_contact",
      "Update properties of an existing HubSpot contact.",
      { contact_id: "s! Contact ID", properties: "o! Properties to set" },
    ],
    [
      "create_deal",
      "Create a deal in a HubSpot pipeline and associate it with contacts or companies.",
      {
        dealname: "s! Deal name",
        pipeline: "s Pipeline ID",
        dealstage: "s! Stage ID",
        amount: "n Amount",
        associated_contact_ids: "S Contacts to associate",
      },
    ],
    [
      "list_deals",
      "List deals, optionally filtered by pipeline, stage or owner.",
      { pipeline: "s Pipeline ID", dealstage: "s Stage ID", owner_id: "s Owner ID", ...PAGE },
    ],
    [
      "get_company",
      "Get a company record with its domain, industry and associated contacts.",
      { company_id: "s! Company ID" },
    ],
    [
      "create_note",
      "Add a note to the timeline of a contact, company or deal.",
      {
        object_type: "e(contact|company|deal)! Object type",
        object_id: "s! Object ID",
        body: "s! Note text (HTML allowed)",
      },
    ],
    [
      "enroll_in_sequence",
      "Enroll a contact in a sales sequence of automated emails and tasks.",
      { contact_id: "s! Contact ID", sequence_id: "s! Sequence ID", sender_email: "s! Connected inbox to send from" },
    ],
    ["list_forms", "List marketing forms with their fields and submission counts.", PAGE],
    [
      "get_form_submissions",
      "Get submissions of a marketing form.",
      { form_id: "s! Form GUID", since: "t Only submissions after this time", ...PAGE },
    ],
    [
      "send_marketing_email",
      "Send a published marketing email to a contact.",
      { email_id: "i! Marketing email ID", to: "s! Recipient address", custom_properties: "o Personalisation tokens" },
    ],
    [
      "get_email_campaign_stats",
      "Get opens, clicks, bounces and unsubscribes of a marketing email campaign.",
      { campaign_id: "s! Campaign ID" },
    ],
  ]),
  ...server("stripe", [
    [
      "create_customer",
      "Create a Stripe customer with email, name and optional metadata.",
      { email: "s Email", name: "s Full name or business name", metadata: "o Key-value metadata" },
    ],
    ["list_customers", "List Stripe customers, optionally filtered by email.", { email: "s Exact email", ...PAGE }],
    [
      "create_payment_link",
      "Create a shareable payment link for a price.",
      { price: "s! Price ID", quantity: "i! Quantity" },
    ],
    [
      "create_invoice",
      "Create a draft invoice for a customer; add invoice items then finalize it.",
      {
        customer: "s! Customer ID",
        days_until_due: "i Days until due",
        collection_method: "e(charge_automatically|send_invoice) Collection method",
      },
    ],
    [
      "create_invoice_item",
      "Add a line item to a customer's draft invoice.",
      { customer: "s! Customer ID", invoice: "s! Invoice ID", price: "s! Price ID" },
    ],
    ["finalize_invoice", "Finalize a draft invoice so it can be paid or sent.", { invoice: "s! Invoice ID" }],
    ["retrieve_balance", "Retrieve the current available and pending balance of the Stripe account.", {}],
    [
      "create_refund",
      "Refund a charge or payment intent, fully or partially.",
      {
        payment_intent: "s! PaymentIntent ID",
        amount: "i Amount in the smallest currency unit; omit for a full refund",
        reason: "e(duplicate|fraudulent|requested_by_customer) Reason",
      },
    ],
    [
      "list_payment_intents",
      "List payment intents, optionally for one customer.",
      { customer: "s Customer ID", ...PAGE },
    ],
    [
      "list_subscriptions",
      "List subscriptions by customer, price or status.",
      {
        customer: "s Customer ID",
        price: "s Price ID",
        status: "e(active|past_due|canceled|trialing|all) Status",
        ...PAGE,
      },
    ],
    [
      "cancel_subscription",
      "Cancel a customer's subscription immediately or at the end of the period.",
      { subscription: "s! Subscription ID", at_period_end: "b Cancel at period end instead of now" },
    ],
    [
      "update_subscription",
      "Change a subscription's price, quantity or trial end, with proration.",
      {
        subscription: "s! Subscription ID",
        items: "o Items to change",
        proration_behavior: "e(create_prorations|none|always_invoice) Proration",
      },
    ],
    [
      "create_product",
      "Create a product that prices can be attached to.",
      { name: "s! Product name", description: "s Description" },
    ],
    [
      "create_price",
      "Create a one-time or recurring price for a product.",
      {
        product: "s! Product ID",
        unit_amount: "i! Amount in cents",
        currency: "s! Three-letter ISO currency",
        recurring_interval: "e(day|week|month|year) Billing interval for recurring prices",
      },
    ],
    [
      "create_coupon",
      "Create a coupon giving a percentage or amount off.",
      {
        percent_off: "n Percent off",
        amount_off: "i Amount off in cents",
        currency: "s Currency of amount_off",
        duration: "e(once|repeating|forever)! Duration",
      },
    ],
    ["list_disputes", "List disputes (chargebacks) filed against charges.", PAGE],
  ]),
  ...server("quickbooks", [
    [
      "create_invoice",
      "Create a QuickBooks Online invoice for a customer with line items and terms.",
      { customer_ref: "s! Customer ID", lines: "o! Line items with item, quantity and rate", due_date: "d Due date" },
    ],
    [
      "list_invoices",
      "List QuickBooks invoices by customer, status or date range.",
      { customer_ref: "s Customer ID", status: "e(open|overdue|paid) Status", from: "d From date", to: "d To date" },
    ],
    [
      "record_payment",
      "Record a customer payment received and apply it to open invoices.",
      {
        customer_ref: "s! Customer ID",
        amount: "n! Amount received",
        invoice_ids: "S Invoices to apply it to",
        payment_date: "d Date received",
      },
    ],
    [
      "create_bill",
      "Enter a vendor bill (accounts payable).",
      { vendor_ref: "s! Vendor ID", lines: "o! Expense lines", due_date: "d Due date" },
    ],
    [
      "create_expense",
      "Record a purchase or expense paid from a bank or credit card account.",
      {
        account_ref: "s! Payment account ID",
        amount: "n! Amount",
        category: "s! Expense account",
        memo: "s Memo",
        receipt_url: "s Receipt attachment URL",
      },
    ],
    [
      "get_profit_and_loss",
      "Run the profit and loss report for a period.",
      {
        start_date: "d! Period start",
        end_date: "d! Period end",
        accounting_method: "e(Cash|Accrual) Accounting method",
      },
    ],
    ["get_balance_sheet", "Run the balance sheet report as of a date.", { as_of: "d! Report date" }],
    ["list_vendors", "List vendors (suppliers) with balances.", PAGE],
    [
      "get_aged_receivables",
      "Aged receivables: what customers owe, bucketed by days overdue.",
      { as_of: "d Report date" },
    ],
    [
      "reconcile_account",
      "Mark bank transactions as reconciled against a statement.",
      {
        account_ref: "s! Bank account ID",
        statement_ending_balance: "n! Statement balance",
        statement_date: "d! Statement date",
      },
    ],
  ]),
  ...server("bamboohr", [
    [
      "get_employee",
      "Get an employee's profile: job title, department, manager, hire date and contact details.",
      { employee_id: "s! Employee ID", fields: "S Fields to return" },
    ],
    [
      "search_employees",
      "Search the employee directory by name, department or location.",
      { query: "s! Name or keyword", department: "s Department", location: "s Office location" },
    ],
    [
      "create_employee",
      "Add a new hire with start date, job title and department.",
      {
        first_name: "s! First name",
        last_name: "s! Last name",
        hire_date: "d! Hire date",
        job_title: "s Job title",
        department: "s Department",
      },
    ],
    [
      "update_employee",
      "Update fields on an employee record.",
      { employee_id: "s! Employee ID", fields: "o! Fields to change" },
    ],
    [
      "request_time_off",
      "Submit a time off request for an employee.",
      {
        employee_id: "s! Employee ID",
        start: "d! First day",
        end: "d! Last day",
        type: "e(vacation|sick|parental|unpaid)! Time off type",
        note: "s Note to approver",
      },
    ],
    [
      "list_time_off_requests",
      "List time off requests by status and date range.",
      { status: "e(requested|approved|denied|canceled) Status", start: "d From", end: "d To" },
    ],
    [
      "get_time_off_balance",
      "Get an employee's remaining time off balances per policy.",
      { employee_id: "s! Employee ID", as_of: "d Date" },
    ],
    [
      "whos_out",
      "List who is out of office (on approved leave or holiday) between two dates.",
      { start: "d From", end: "d To" },
    ],
    [
      "get_org_chart",
      "Get the reporting hierarchy below an employee.",
      { employee_id: "s Root employee (default CEO)", depth: "i Levels" },
    ],
    [
      "list_job_openings",
      "List open job requisitions in the applicant tracking system.",
      { status: "e(open|on_hold|filled|draft) Status" },
    ],
    [
      "terminate_employee",
      "Record an employee's termination with last day and reason.",
      { employee_id: "s! Employee ID", termination_date: "d! Last day", reason: "s Reason" },
    ],
  ]),
  ...server("gusto", [
    [
      "run_payroll",
      "Calculate and submit a regular payroll for a pay period.",
      { pay_period_start: "d! Start", pay_period_end: "d! End", check_date: "d Pay date" },
    ],
    [
      "list_payrolls",
      "List processed and upcoming payrolls.",
      { processed: "b Only processed payrolls", start_date: "d From", end_date: "d To" },
    ],
    [
      "get_pay_stub",
      "Get an employee's pay stub for a payroll: gross, taxes, deductions and net pay.",
      { payroll_id: "s! Payroll ID", employee_id: "s! Employee ID" },
    ],
    [
      "update_compensation",
      "Change an employee's salary or hourly rate from an effective date.",
      {
        employee_id: "s! Employee ID",
        rate: "n! New rate",
        payment_unit: "e(Hour|Year|Month)! Unit",
        effective_date: "d! Effective date",
      },
    ],
    [
      "add_contractor_payment",
      "Pay a contractor for work or a fixed amount.",
      { contractor_id: "s! Contractor ID", wage: "n! Amount", date: "d! Payment date", memo: "s Memo" },
    ],
  ]),
  ...server("jira", [
    [
      "create_issue",
      "Create a Jira issue (story, bug, task) in a project.",
      {
        project_key: "s! Project key, e.g. PROJ",
        summary: "s! Summary",
        issue_type: "s! Issue type name",
        description: "s Description (Atlassian wiki markup)",
        assignee: "s Assignee account ID",
        priority: "s Priority name",
      },
    ],
    [
      "get_issue",
      "Get a Jira issue by key with its fields, status, comments and links.",
      { issue_key: "s! Issue key, e.g. PROJ-123", expand: "S Sections to expand, e.g. changelog" },
    ],
    ["update_issue", "Edit fields of a Jira issue.", { issue_key: "s! Issue key", fields: "o! Fields to set" }],
    [
      "search_issues",
      "Search Jira issues with JQL.",
      {
        jql: 's! JQL query, e.g. project = PROJ AND status = "In Progress"',
        fields: "S Fields to return",
        max_results: "i Maximum results",
      },
    ],
    [
      "transition_issue",
      "Move a Jira issue through its workflow, e.g. To Do → In Progress → Done.",
      { issue_key: "s! Issue key", transition: "s! Transition name or ID", comment: "s Comment to add" },
    ],
    ["add_comment", "Add a comment to a Jira issue.", { issue_key: "s! Issue key", body: "s! Comment text" }],
    [
      "assign_issue",
      "Assign a Jira issue to a user, or unassign it.",
      { issue_key: "s! Issue key", account_id: "s Assignee account ID; null to unassign" },
    ],
    [
      "list_sprints",
      "List sprints of a Scrum board.",
      { board_id: "i! Board ID", state: "e(future|active|closed) Sprint state" },
    ],
    ["move_issues_to_sprint", "Move issues into a sprint.", { sprint_id: "i! Sprint ID", issue_keys: "S! Issue keys" }],
    [
      "log_work",
      "Log time spent on a Jira issue (worklog).",
      {
        issue_key: "s! Issue key",
        time_spent: "s! Duration, e.g. 2h 30m",
        comment: "s Work description",
        started: "t Start time",
      },
    ],
    [
      "link_issues",
      "Link two Jira issues, e.g. blocks or duplicates.",
      { inward_issue: "s! Issue key", outward_issue: "s! Issue key", link_type: "s! Link type name, e.g. Blocks" },
    ],
    ["list_projects", "List Jira projects visible to the user.", PAGE],
    [
      "create_version",
      "Create a release version in a Jira project.",
      { project_key: "s! Project key", name: "s! Version name", release_date: "d Planned release date" },
    ],
  ]),
  ...server("linear", [
    [
      "create_issue",
      "Create a Linear issue in a team, optionally in a project and cycle.",
      {
        team_id: "s! Team ID",
        title: "s! Title",
        description: "s Markdown description",
        priority: "i 0 none, 1 urgent, 2 high, 3 medium, 4 low",
        assignee_id: "s Assignee",
        label_ids: "S Labels",
      },
    ],
    [
      "get_issue",
      "Get a Linear issue by identifier (e.g. ENG-42) with state, assignee and comments.",
      { id: "s! Issue ID or identifier" },
    ],
    [
      "update_issue",
      "Update a Linear issue's title, state, priority, assignee or labels.",
      {
        id: "s! Issue ID",
        title: "s",
        state_id: "s Workflow state",
        priority: "i Priority",
        assignee_id: "s Assignee",
      },
    ],
    [
      "list_issues",
      "List Linear issues filtered by team, assignee, state or label.",
      {
        team_id: "s Team",
        assignee_id: "s Assignee; 'me' for yourself",
        state: "s State name",
        label: "s Label",
        ...PAGE,
      },
    ],
    ["create_comment", "Comment on a Linear issue.", { issue_id: "s! Issue ID", body: "s! Markdown body" }],
    ["list_cycles", "List a team's cycles (sprints) with progress.", { team_id: "s! Team ID" }],
    ["list_projects", "List Linear projects with status, lead and target date.", { team_id: "s Team", ...PAGE }],
    [
      "create_project_update",
      "Post a status update on a Linear project with health.",
      { project_id: "s! Project ID", body: "s! Markdown body", health: "e(onTrack|atRisk|offTrack) Health" },
    ],
    ["list_teams", "List the workspace's teams.", {}],
  ]),
  ...server("zendesk", [
    [
      "create_ticket",
      "Create a support ticket on behalf of a requester.",
      {
        subject: "s! Subject",
        comment: "s! First comment (the customer's message)",
        requester_email: "s Requester",
        priority: "e(low|normal|high|urgent) Priority",
        tags: "S Tags",
      },
    ],
    [
      "get_ticket",
      "Get a support ticket with its conversation.",
      { ticket_id: "i! Ticket ID", include_comments: "b Include comments" },
    ],
    [
      "update_ticket",
      "Update a ticket's status, priority, assignee or tags, optionally with a public reply or internal note.",
      {
        ticket_id: "i! Ticket ID",
        status: "e(new|open|pending|hold|solved|closed) Status",
        assignee_id: "i Agent ID",
        comment: "s Reply or note",
        public: "b Whether the comment is visible to the requester",
      },
    ],
    [
      "search_tickets",
      "Search tickets with Zendesk search syntax.",
      { query: "s! Query, e.g. status:open requester:jane@example.com" },
    ],
    ["list_ticket_comments", "List the comments on a ticket, public and internal.", { ticket_id: "i! Ticket ID" }],
    [
      "merge_tickets",
      "Merge duplicate tickets into a target ticket.",
      { target_id: "i! Ticket to keep", source_ids: "S! Tickets to merge in" },
    ],
    [
      "get_satisfaction_ratings",
      "List customer satisfaction (CSAT) ratings by score and date.",
      { score: "e(good|bad) Score", start_time: "t From" },
    ],
    ["search_help_center", "Search help center articles.", { query: "s! Query", locale: "s Locale" }],
    ["apply_macro", "Apply a saved macro to a ticket.", { ticket_id: "i! Ticket ID", macro_id: "i! Macro ID" }],
    ["list_views", "List the agent's ticket views with counts.", {}],
  ]),
  ...server("pagerduty", [
    [
      "list_incidents",
      "List PagerDuty incidents by status, service or urgency.",
      {
        statuses: "S triggered, acknowledged, resolved",
        service_ids: "S Services",
        urgency: "e(high|low) Urgency",
        since: "t From",
      },
    ],
    ["get_incident", "Get an incident with its timeline and assignments.", { incident_id: "s! Incident ID" }],
    [
      "create_incident",
      "Trigger a new incident on a service.",
      { service_id: "s! Service ID", title: "s! Title", urgency: "e(high|low) Urgency", details: "s Details" },
    ],
    ["acknowledge_incident", "Acknowledge an incident so escalation stops.", { incident_id: "s! Incident ID" }],
    ["resolve_incident", "Resolve an incident.", { incident_id: "s! Incident ID", resolution: "s Resolution note" }],
    [
      "list_oncalls",
      "List who is on call, per escalation policy and schedule.",
      {
        schedule_ids: "S Schedules",
        escalation_policy_ids: "S Escalation policies",
        since: "t From",
        until: "t Until",
      },
    ],
    [
      "create_override",
      "Create a schedule override so someone else covers a shift.",
      { schedule_id: "s! Schedule ID", user_id: "s! Covering user", start: "t! Start", end: "t! End" },
    ],
    ["list_services", "List services and their integration status.", PAGE],
  ]),
  ...server("google-calendar", [
    [
      "list_events",
      "List events on a calendar in a time range.",
      {
        calendar_id: "s Calendar ID (default primary)",
        time_min: "t! Start of range",
        time_max: "t! End of range",
        query: "s Free-text filter",
      },
    ],
    [
      "create_event",
      "Create a calendar event with attendees, location and video conference.",
      {
        summary: "s! Title",
        start: "t! Start",
        end: "t! End",
        attendees: "S Attendee emails",
        location: "s Location",
        add_conference: "b Add a Google Meet link",
        recurrence: "S RRULE lines",
      },
    ],
    [
      "update_event",
      "Change an event's time, title, attendees or description.",
      {
        event_id: "s! Event ID",
        calendar_id: "s Calendar ID",
        changes: "o! Fields to change",
        send_updates: "e(all|externalOnly|none) Notify attendees",
      },
    ],
    [
      "delete_event",
      "Cancel (delete) a calendar event and notify attendees.",
      { event_id: "s! Event ID", calendar_id: "s Calendar ID" },
    ],
    [
      "find_free_slots",
      "Find times when all given people are free (free/busy query).",
      { attendees: "S! Emails", time_min: "t! From", time_max: "t! Until", duration_minutes: "i! Meeting length" },
    ],
    [
      "respond_to_event",
      "Accept, decline or tentatively accept an invitation.",
      { event_id: "s! Event ID", response: "e(accepted|declined|tentative)! Response" },
    ],
    ["list_calendars", "List calendars the user can see.", {}],
  ]),
  ...server("gmail", [
    [
      "send_email",
      "Send an email from the user's Gmail account.",
      {
        to: "S! Recipients",
        subject: "s! Subject",
        body: "s! Body (plain text or HTML)",
        cc: "S Cc",
        bcc: "S Bcc",
        attachments: "S Drive file IDs or URLs",
      },
    ],
    [
      "search_emails",
      "Search the mailbox with Gmail search operators.",
      { query: "s! Query, e.g. from:boss@example.com is:unread newer_than:7d", max_results: "i Maximum results" },
    ],
    ["read_email", "Read a message's headers, body and attachment list.", { message_id: "s! Message ID" }],
    [
      "create_draft",
      "Save an email as a draft without sending it.",
      { to: "S Recipients", subject: "s Subject", body: "s Body" },
    ],
    [
      "reply_to_email",
      "Reply to a message in its thread.",
      { message_id: "s! Message to reply to", body: "s! Reply body", reply_all: "b Reply to all" },
    ],
    [
      "modify_labels",
      "Add or remove labels on messages, e.g. archive, mark read, star.",
      { message_ids: "S! Messages", add_labels: "S Labels to add", remove_labels: "S Labels to remove" },
    ],
    [
      "create_filter",
      "Create a mailbox filter that labels, archives or forwards matching mail.",
      { criteria: "o! From, to, subject, query", action: "o! Labels to add or remove, forward address" },
    ],
    [
      "download_attachment",
      "Download an attachment of a message.",
      { message_id: "s! Message ID", attachment_id: "s! Attachment ID" },
    ],
  ]),
  ...server("outlook", [
    [
      "send_mail",
      "Send a message from the user's Outlook mailbox (Microsoft Graph).",
      { to: "S! Recipients", subject: "s! Subject", body: "s! Body", importance: "e(low|normal|high) Importance" },
    ],
    [
      "list_messages",
      "List messages in an Outlook folder.",
      { folder: "s Folder (default Inbox)", filter: "s OData filter", top: "i Count" },
    ],
    [
      "set_automatic_replies",
      "Turn the out-of-office automatic reply on or off, with a message and schedule.",
      {
        status: "e(disabled|alwaysEnabled|scheduled)! Status",
        internal_message: "s Reply to colleagues",
        external_message: "s Reply to external senders",
        start: "t Scheduled start",
        end: "t Scheduled end",
      },
    ],
    [
      "create_calendar_event",
      "Create an event in the Outlook calendar with a Teams meeting link.",
      {
        subject: "s! Subject",
        start: "t! Start",
        end: "t! End",
        attendees: "S Attendees",
        online_meeting: "b Add a Teams meeting",
      },
    ],
    ["list_contacts", "List personal contacts in Outlook.", PAGE],
  ]),
  ...server("teams", [
    [
      "send_channel_message",
      "Post a message to a Microsoft Teams channel.",
      { team_id: "s! Team ID", channel_id: "s! Channel ID", content: "s! Message (HTML allowed)" },
    ],
    [
      "send_chat_message",
      "Send a message in a one-to-one or group chat.",
      { chat_id: "s! Chat ID", content: "s! Message" },
    ],
    ["list_channels", "List channels of a team.", { team_id: "s! Team ID" }],
    [
      "create_meeting",
      "Schedule an online Teams meeting and get its join link.",
      { subject: "s! Subject", start: "t! Start", end: "t! End", participants: "S Participants" },
    ],
    [
      "get_presence",
      "Get a user's presence (Available, Busy, Away, Do not disturb).",
      { user_id: "s! User ID or email" },
    ],
  ]),
  ...server("discord", [
    [
      "send_message",
      "Send a message to a Discord channel as the bot.",
      { channel_id: "s! Channel ID", content: "s! Message content (markdown)", embeds: "o Rich embeds" },
    ],
    [
      "read_messages",
      "Read recent messages in a Discord channel.",
      { channel_id: "s! Channel ID", limit: "i Messages to fetch (max 100)" },
    ],
    [
      "create_thread",
      "Start a thread from a message or in a channel.",
      { channel_id: "s! Channel ID", name: "s! Thread name", message_id: "s Message to start from" },
    ],
    [
      "add_role",
      "Give a guild member a role.",
      { guild_id: "s! Server ID", user_id: "s! User ID", role_id: "s! Role ID" },
    ],
    [
      "ban_member",
      "Ban a member from the server and optionally delete their recent messages.",
      {
        guild_id: "s! Server ID",
        user_id: "s! User ID",
        delete_message_days: "i Days of messages to delete (0-7)",
        reason: "s Audit log reason",
      },
    ],
    [
      "create_scheduled_event",
      "Create a scheduled event in a Discord server.",
      { guild_id: "s! Server ID", name: "s! Name", start_time: "t! Start", channel_id: "s Voice or stage channel" },
    ],
  ]),
  ...server("whatsapp", [
    [
      "send_message",
      "Send a WhatsApp text message to a phone number through the WhatsApp Business API.",
      { to: "s! Recipient phone number in E.164 format", text: "s! Message body" },
    ],
    [
      "send_template_message",
      "Send a pre-approved WhatsApp message template (required outside the 24-hour window).",
      {
        to: "s! Recipient phone number",
        template_name: "s! Template name",
        language: "s! Language code",
        parameters: "S Template variables",
      },
    ],
    [
      "send_media",
      "Send an image, document, audio or video over WhatsApp.",
      {
        to: "s! Recipient",
        media_url: "s! Public URL of the media",
        type: "e(image|document|audio|video)! Media type",
        caption: "s Caption",
      },
    ],
    ["list_conversations", "List recent WhatsApp conversations with the last message.", PAGE],
    ["mark_as_read", "Mark an incoming WhatsApp message as read (blue ticks).", { message_id: "s! Message ID" }],
  ]),
  ...server("twilio", [
    [
      "send_sms",
      "Send an SMS text message from a Twilio number.",
      {
        to: "s! Destination phone number (E.164)",
        from: "s! Twilio number or messaging service",
        body: "s! Message text",
      },
    ],
    [
      "make_call",
      "Place an outbound phone call that plays a message or TwiML.",
      { to: "s! Number to call", from: "s! Caller ID", twiml: "s TwiML instructions", say: "s Text to speak" },
    ],
    [
      "list_messages",
      "List sent and received SMS messages.",
      { to: "s Filter by recipient", from: "s Filter by sender", date_sent_after: "d After" },
    ],
    [
      "lookup_phone_number",
      "Look up a phone number's carrier, line type and caller name.",
      { phone_number: "s! Phone number" },
    ],
    [
      "start_verification",
      "Send a one-time verification code by SMS, call or email (Verify).",
      { to: "s! Phone number or email", channel: "e(sms|call|email)! Channel", service_sid: "s! Verify service" },
    ],
    [
      "check_verification",
      "Check a one-time code the user entered.",
      { to: "s! Phone number or email", code: "s! Code", service_sid: "s! Verify service" },
    ],
  ]),
  ...server("jenkins", [
    [
      "trigger_build",
      "Trigger a Jenkins job build, with parameters for parameterised jobs.",
      { job: "s! Job name or path, e.g. folder/job", parameters: "o Build parameters" },
    ],
    [
      "get_build_status",
      "Get a build's result, duration and stage status.",
      { job: "s! Job name", build_number: "i Build number (default last build)" },
    ],
    [
      "get_build_log",
      "Get the console output of a build.",
      { job: "s! Job name", build_number: "i! Build number", start: "i Byte offset to start from" },
    ],
    ["list_jobs", "List jobs in a folder with their last build result.", { folder: "s Folder path" }],
    ["abort_build", "Abort a running build.", { job: "s! Job name", build_number: "i! Build number" }],
    ["get_queue", "List items waiting in the build queue and why they wait.", {}],
  ]),
  ...server("github-actions", [
    [
      "list_workflow_runs",
      "List GitHub Actions workflow runs of a repository by branch, event or status.",
      {
        owner: "s! Owner",
        repo: "s! Repository",
        workflow: "s Workflow file name or ID",
        branch: "s Branch",
        status: "e(queued|in_progress|completed|success|failure) Status",
      },
    ],
    [
      "rerun_failed_jobs",
      "Re-run only the failed jobs of a workflow run.",
      { owner: "s! Owner", repo: "s! Repository", run_id: "i! Run ID" },
    ],
    [
      "dispatch_workflow",
      "Manually trigger a workflow that has a workflow_dispatch event.",
      {
        owner: "s! Owner",
        repo: "s! Repository",
        workflow: "s! Workflow file name",
        ref: "s! Branch or tag",
        inputs: "o Workflow inputs",
      },
    ],
    [
      "get_job_logs",
      "Download the logs of one job of a workflow run.",
      { owner: "s! Owner", repo: "s! Repository", job_id: "i! Job ID" },
    ],
    [
      "list_artifacts",
      "List artifacts produced by workflow runs.",
      { owner: "s! Owner", repo: "s! Repository", run_id: "i Run ID" },
    ],
    [
      "set_secret",
      "Create or update an encrypted Actions secret of a repository.",
      { owner: "s! Owner", repo: "s! Repository", name: "s! Secret name", value: "s! Secret value" },
    ],
  ]),
  ...server("vercel", [
    [
      "list_deployments",
      "List deployments of a Vercel project with state and URL.",
      {
        project: "s Project name or ID",
        target: "e(production|preview) Target",
        state: "e(BUILDING|ERROR|READY|CANCELED) State",
        ...PAGE,
      },
    ],
    [
      "create_deployment",
      "Deploy a Git ref of a project to preview or production.",
      { project: "s! Project", ref: "s! Branch, tag or commit", target: "e(production|preview) Target" },
    ],
    [
      "promote_deployment",
      "Promote a preview deployment to production, or roll production back to an earlier deployment.",
      { project: "s! Project", deployment_id: "s! Deployment to promote" },
    ],
    [
      "get_deployment_logs",
      "Get build and runtime logs of a deployment.",
      { deployment_id: "s! Deployment ID", since: "t From" },
    ],
    [
      "set_env_var",
      "Add or update an environment variable of a Vercel project.",
      { project: "s! Project", key: "s! Name", value: "s! Value", targets: "S production, preview, development" },
    ],
    [
      "add_domain",
      "Add a custom domain to a Vercel project and get the DNS records to configure.",
      { project: "s! Project", domain: "s! Domain name" },
    ],
  ]),
  ...server("aws", [
    [
      "list_ec2_instances",
      "List EC2 instances with state, type, IPs and tags.",
      { region: "s Region", filters: "o EC2 filters, e.g. tag:env=prod" },
    ],
    ["start_ec2_instance", "Start stopped EC2 instances.", { instance_ids: "S! Instance IDs", region: "s Region" }],
    [
      "stop_ec2_instance",
      "Stop running EC2 instances.",
      { instance_ids: "S! Instance IDs", region: "s Region", hibernate: "b Hibernate" },
    ],
    [
      "s3_list_objects",
      "List objects in an S3 bucket under a prefix.",
      { bucket: "s! Bucket", prefix: "s Key prefix", max_keys: "i Maximum keys" },
    ],
    ["s3_get_object", "Download an object from S3.", { bucket: "s! Bucket", key: "s! Object key" }],
    [
      "s3_put_object",
      "Upload content to S3 as an object.",
      { bucket: "s! Bucket", key: "s! Object key", body: "s! Content", content_type: "s MIME type" },
    ],
    [
      "s3_presign_url",
      "Create a time-limited pre-signed URL to download or upload an S3 object.",
      {
        bucket: "s! Bucket",
        key: "s! Object key",
        expires_in: "i Seconds (default 3600)",
        method: "e(GET|PUT) Method",
      },
    ],
    [
      "lambda_invoke",
      "Invoke a Lambda function synchronously or asynchronously.",
      {
        function_name: "s! Function name or ARN",
        payload: "o Event payload",
        invocation_type: "e(RequestResponse|Event) Invocation type",
      },
    ],
    [
      "cloudwatch_get_metric",
      "Get CloudWatch metric statistics for a time range.",
      {
        namespace: "s! Namespace, e.g. AWS/EC2",
        metric_name: "s! Metric, e.g. CPUUtilization",
        dimensions: "o Dimensions",
        start: "t! From",
        end: "t! To",
        period: "i! Seconds per datapoint",
        statistic: "e(Average|Sum|Maximum|Minimum|SampleCount) Statistic",
      },
    ],
    [
      "logs_query",
      "Run a CloudWatch Logs Insights query over log groups.",
      { log_groups: "S! Log group names", query: "s! Logs Insights query", start: "t! From", end: "t! To" },
    ],
    [
      "get_cost_and_usage",
      "Get AWS spend from Cost Explorer grouped by service, account or tag.",
      {
        start: "d! From",
        end: "d! To",
        granularity: "e(DAILY|MONTHLY)! Granularity",
        group_by: "s Dimension or tag key",
      },
    ],
    ["iam_list_users", "List IAM users with their access keys' age.", {}],
    [
      "describe_rds_instances",
      "Describe RDS database instances: engine, class, status, storage.",
      { db_instance_identifier: "s Instance" },
    ],
  ]),
  ...server("kubernetes", [
    [
      "get_pods",
      "List pods in a namespace with status, restarts and node.",
      { namespace: "s Namespace (default default)", label_selector: "s Label selector" },
    ],
    [
      "get_pod_logs",
      "Fetch logs of a pod's container.",
      {
        name: "s! Pod name",
        namespace: "s Namespace",
        container: "s Container",
        tail_lines: "i Last lines",
        previous: "b Logs of the previous (crashed) container",
      },
    ],
    [
      "scale_deployment",
      "Set the replica count of a deployment.",
      { name: "s! Deployment", namespace: "s Namespace", replicas: "i! Replicas" },
    ],
    [
      "rollout_restart",
      "Restart a deployment's pods with a rolling restart.",
      { name: "s! Deployment", namespace: "s Namespace" },
    ],
    [
      "rollout_undo",
      "Roll a deployment back to its previous revision.",
      { name: "s! Deployment", namespace: "s Namespace", to_revision: "i Revision" },
    ],
    [
      "apply_manifest",
      "Apply a YAML manifest (create or update resources).",
      { manifest: "s! YAML", namespace: "s Namespace", dry_run: "b Server-side dry run" },
    ],
    [
      "describe_resource",
      "Describe any resource, including events.",
      { kind: "s! Kind, e.g. pod, service, ingress", name: "s! Name", namespace: "s Namespace" },
    ],
    [
      "exec_in_pod",
      "Run a command inside a pod's container.",
      { name: "s! Pod", namespace: "s Namespace", command: "S! Command and arguments" },
    ],
    [
      "get_events",
      "List cluster events, newest first (warnings, scheduling, OOM kills).",
      { namespace: "s Namespace", field_selector: "s Field selector" },
    ],
  ]),
  ...server("datadog", [
    [
      "query_metrics",
      "Query Datadog timeseries metrics with the metrics query language.",
      { query: "s! Query, e.g. avg:system.cpu.user{service:api} by {host}", from: "t! From", to: "t! To" },
    ],
    [
      "search_logs",
      "Search Datadog logs with the log search syntax.",
      { query: "s! Query, e.g. service:api status:error", from: "t From", to: "t To", limit: "i Maximum logs" },
    ],
    [
      "list_monitors",
      "List monitors with their state (OK, Alert, Warn, No Data).",
      { name: "s Name filter", tags: "S Tags", group_states: "S States" },
    ],
    [
      "mute_monitor",
      "Mute a monitor (silence its alerts) until a time.",
      { monitor_id: "i! Monitor ID", end: "t Unmute at", scope: "s Scope to mute" },
    ],
    [
      "create_monitor",
      "Create a metric, log or APM monitor that alerts on a threshold.",
      {
        name: "s! Name",
        type: "s! Type, e.g. metric alert",
        query: "s! Monitor query",
        message: "s! Notification message with @handles",
        thresholds: "o Thresholds",
      },
    ],
    [
      "get_apm_traces",
      "Search APM traces (spans) by service, resource and latency.",
      {
        service: "s! Service",
        resource: "s Resource",
        min_duration_ms: "n Minimum duration",
        from: "t From",
        to: "t To",
      },
    ],
    [
      "create_dashboard",
      "Create a dashboard of widgets.",
      { title: "s! Title", widgets: "o! Widget definitions", layout_type: "e(ordered|free) Layout" },
    ],
    [
      "schedule_downtime",
      "Schedule a downtime to silence monitors during maintenance.",
      { scope: "S! Scopes, e.g. env:prod", start: "t! Start", end: "t! End", message: "s Message" },
    ],
  ]),
  ...server("sentry", [
    [
      "list_issues",
      "List Sentry issues (grouped errors) of a project, sorted by frequency or recency.",
      {
        organization: "s! Organization slug",
        project: "s! Project slug",
        query: "s Search, e.g. is:unresolved level:error",
        sort: "e(date|freq|new|user) Sort",
      },
    ],
    [
      "get_issue_details",
      "Get an error issue with its latest event's stack trace, tags and breadcrumbs.",
      { issue_id: "s! Issue ID" },
    ],
    [
      "resolve_issue",
      "Mark a Sentry issue resolved, optionally in the next release.",
      { issue_id: "s! Issue ID", in_next_release: "b Resolve in the next release" },
    ],
    [
      "get_release_health",
      "Crash-free sessions and users of a release.",
      { organization: "s! Organization", project: "s! Project", release: "s! Version" },
    ],
    [
      "list_releases",
      "List releases with their deploys and new issues.",
      { organization: "s! Organization", project: "s Project" },
    ],
  ]),
  ...server("confluence", [
    [
      "search_content",
      "Search Confluence pages and blog posts with CQL.",
      { cql: 's! CQL, e.g. text ~ "onboarding" AND space = ENG', limit: "i Maximum results" },
    ],
    [
      "get_page",
      "Get a Confluence page's content (storage format) and version.",
      { page_id: "s! Page ID", body_format: "e(storage|view|atlas_doc_format) Body format" },
    ],
    [
      "create_page",
      "Create a page in a space, optionally under a parent page.",
      { space_key: "s! Space key", title: "s! Title", body: "s! Content (storage format)", parent_id: "s Parent page" },
    ],
    [
      "update_page",
      "Update a page's title or body (increments its version).",
      { page_id: "s! Page ID", title: "s Title", body: "s! New content", version: "i! Current version number" },
    ],
    ["list_spaces", "List Confluence spaces.", PAGE],
    ["add_label", "Add labels to a Confluence page.", { page_id: "s! Page ID", labels: "S! Labels" }],
    ["get_page_children", "List the child pages of a page.", { page_id: "s! Page ID" }],
  ]),
  ...server("google-drive", [
    [
      "search_files",
      "Search Google Drive files by name, content, type or owner.",
      {
        query: "s! Drive query, e.g. name contains 'budget' and mimeType = 'application/vnd.google-apps.spreadsheet'",
        page_size: "i Results",
      },
    ],
    [
      "get_file_content",
      "Export a Drive file's content: Docs as Markdown, Sheets as CSV, others as text.",
      { file_id: "s! File ID" },
    ],
    [
      "upload_file",
      "Upload a file to Google Drive.",
      {
        name: "s! File name",
        content: "s! Content (text or base64)",
        mime_type: "s MIME type",
        folder_id: "s Parent folder",
      },
    ],
    [
      "share_file",
      "Share a Drive file or folder with a user, group or anyone with the link.",
      {
        file_id: "s! File ID",
        email: "s Person or group",
        role: "e(reader|commenter|writer|owner)! Role",
        anyone_with_link: "b Share with anyone who has the link",
      },
    ],
    ["create_folder", "Create a folder in Drive.", { name: "s! Folder name", parent_id: "s Parent folder" }],
    [
      "move_file",
      "Move a Drive file to another folder.",
      { file_id: "s! File ID", folder_id: "s! Destination folder" },
    ],
    ["list_permissions", "List who has access to a file.", { file_id: "s! File ID" }],
  ]),
  ...server("google-sheets", [
    [
      "read_range",
      "Read cell values from a spreadsheet range in A1 notation.",
      { spreadsheet_id: "s! Spreadsheet ID", range: "s! Range, e.g. Sheet1!A1:D20" },
    ],
    [
      "write_range",
      "Write values to a range, overwriting existing cells.",
      { spreadsheet_id: "s! Spreadsheet ID", range: "s! Range", values: "o! Rows of values" },
    ],
    [
      "append_rows",
      "Append rows after the last row of a table.",
      { spreadsheet_id: "s! Spreadsheet ID", range: "s! Table range", values: "o! Rows" },
    ],
    [
      "create_spreadsheet",
      "Create a new spreadsheet with named sheets.",
      { title: "s! Title", sheets: "S Sheet names" },
    ],
    ["add_sheet", "Add a tab to a spreadsheet.", { spreadsheet_id: "s! Spreadsheet ID", title: "s! Tab name" }],
  ]),
  ...server("dropbox", [
    [
      "upload",
      "Upload a file to Dropbox.",
      { path: "s! Dropbox path", content: "s! File content (base64)", mode: "e(add|overwrite) Write mode" },
    ],
    ["download", "Download a file from Dropbox.", { path: "s! Dropbox path" }],
    ["list_folder", "List the contents of a Dropbox folder.", { path: "s! Folder path", recursive: "b Recursive" }],
    [
      "create_shared_link",
      "Create a shared link to a file or folder.",
      { path: "s! Path", expires: "t Expiry", password: "s Password" },
    ],
    ["restore_file", "Restore a file to an earlier revision.", { path: "s! Path", rev: "s! Revision" }],
  ]),
  ...server("mixpanel", [
    [
      "query_events",
      "Count events over time, segmented by a property.",
      {
        event: "s! Event name",
        from_date: "d! From",
        to_date: "d! To",
        unit: "e(hour|day|week|month) Unit",
        segment_by: "s Property to segment by",
      },
    ],
    [
      "funnel_report",
      "Conversion through a funnel of steps: count and drop-off per step.",
      { funnel_id: "i! Funnel ID", from_date: "d! From", to_date: "d! To" },
    ],
    [
      "retention_report",
      "Cohort retention: how many users come back after their first event.",
      { born_event: "s! First event", return_event: "s Returning event", from_date: "d! From", to_date: "d! To" },
    ],
    [
      "get_user_profile",
      "Look up a user profile and its recent events by distinct ID.",
      { distinct_id: "s! Distinct ID" },
    ],
    ["list_cohorts", "List saved cohorts with their size.", {}],
  ]),
  ...server("google-analytics", [
    [
      "run_report",
      "Run a GA4 report of dimensions and metrics over a date range.",
      {
        property_id: "s! GA4 property",
        dimensions: "S e.g. country, pagePath",
        metrics: "S! e.g. sessions, activeUsers",
        start_date: "s! Start, e.g. 7daysAgo",
        end_date: "s! End, e.g. today",
      },
    ],
    [
      "run_realtime_report",
      "Active users right now, by page, country or source.",
      { property_id: "s! GA4 property", dimensions: "S Dimensions", metrics: "S Metrics" },
    ],
    ["list_properties", "List GA4 properties of the account.", {}],
  ]),
  ...server("shopify", [
    [
      "list_orders",
      "List store orders by status, fulfilment or date.",
      {
        status: "e(open|closed|cancelled|any) Status",
        fulfillment_status: "e(shipped|partial|unshipped|any) Fulfilment",
        created_at_min: "t From",
        ...PAGE,
      },
    ],
    [
      "get_order",
      "Get an order's line items, customer, shipping address and payment status.",
      { order_id: "s! Order ID" },
    ],
    [
      "create_product",
      "Create a product with variants, prices and images.",
      {
        title: "s! Title",
        body_html: "s Description",
        vendor: "s Vendor",
        variants: "o Variants with price and SKU",
        images: "S Image URLs",
      },
    ],
    [
      "update_inventory",
      "Set or adjust the available stock of a variant at a location.",
      {
        inventory_item_id: "s! Inventory item",
        location_id: "s! Location",
        available_adjustment: "i! Change in available quantity",
      },
    ],
    [
      "create_fulfillment",
      "Fulfil an order's items and add a tracking number.",
      {
        order_id: "s! Order ID",
        tracking_number: "s Tracking number",
        tracking_company: "s Carrier",
        notify_customer: "b Email the customer",
      },
    ],
    [
      "refund_order",
      "Refund line items or shipping of an order and restock items.",
      { order_id: "s! Order ID", line_items: "o Items and quantities", restock: "b Restock", note: "s Reason" },
    ],
    [
      "create_discount_code",
      "Create a discount code for a price rule.",
      { price_rule_id: "s! Price rule", code: "s! Code customers enter" },
    ],
    [
      "search_customers",
      "Search store customers by name, email or order count.",
      { query: "s! Query, e.g. email:jane@example.com" },
    ],
    [
      "cancel_order",
      "Cancel an order, optionally refunding and restocking.",
      {
        order_id: "s! Order ID",
        reason: "e(customer|fraud|inventory|declined|other) Reason",
        refund: "b Refund payment",
      },
    ],
  ]),
  ...server("shippo", [
    [
      "get_rates",
      "Get shipping rates from carriers for a parcel between two addresses.",
      {
        address_from: "o! Sender address",
        address_to: "o! Recipient address",
        parcel: "o! Length, width, height, weight and units",
      },
    ],
    [
      "purchase_label",
      "Buy a shipping label for a rate and get the label PDF and tracking number.",
      { rate_id: "s! Rate ID", label_file_type: "e(PDF|PNG|ZPLII) Label format" },
    ],
    [
      "track_shipment",
      "Get the tracking status and history of a shipment.",
      { carrier: "s! Carrier token, e.g. usps, ups, fedex", tracking_number: "s! Tracking number" },
    ],
    [
      "validate_address",
      "Validate and normalise a postal address.",
      { street1: "s! Street", city: "s! City", state: "s State", zip: "s! Postal code", country: "s! ISO country" },
    ],
    ["create_return_label", "Create a return label for an outbound shipment.", { shipment_id: "s! Original shipment" }],
    [
      "schedule_pickup",
      "Schedule a carrier pickup for labels.",
      {
        carrier_account: "s! Carrier account",
        address: "o! Pickup address",
        requested_start_time: "t! Window start",
        requested_end_time: "t! Window end",
      },
    ],
  ]),
  ...server("docusign", [
    [
      "send_envelope",
      "Send a document for electronic signature to one or more signers.",
      {
        document_url: "s! Document to sign",
        signers: "o! Names and emails in signing order",
        subject: "s! Email subject",
        message: "s Email message",
      },
    ],
    [
      "get_envelope_status",
      "Get an envelope's status and which recipients have signed.",
      { envelope_id: "s! Envelope ID" },
    ],
    [
      "void_envelope",
      "Void an envelope that is not completed.",
      { envelope_id: "s! Envelope ID", reason: "s! Reason" },
    ],
    [
      "download_signed_document",
      "Download the completed, signed documents and the certificate of completion.",
      { envelope_id: "s! Envelope ID" },
    ],
    ["list_templates", "List signing templates.", {}],
  ]),
  ...server("languagetool", [
    [
      "check_grammar",
      "Check text for grammar, spelling and style errors and suggest corrections.",
      { text: "s! Text to check", language: "s Language code, e.g. en-US (default auto)" },
    ],
    ["list_languages", "List supported languages and variants.", {}],
  ]),
  ...server("deepl", [
    [
      "translate_text",
      "Translate text between languages.",
      {
        text: "S! Texts to translate",
        target_lang: "s! Target language, e.g. DE, FR, EN-GB",
        source_lang: "s Source language (default auto-detect)",
        formality: "e(default|more|less) Formality",
      },
    ],
    [
      "translate_document",
      "Translate a whole document (docx, pptx, pdf) keeping its layout.",
      { document_url: "s! Document", target_lang: "s! Target language" },
    ],
    ["get_usage", "Characters translated this billing period and the limit.", {}],
  ]),
  ...server("openweather", [
    [
      "get_current_weather",
      "Current weather for a city or coordinates: temperature, wind, humidity, conditions.",
      { city: "s City name", lat: "n Latitude", lon: "n Longitude", units: "e(metric|imperial) Units" },
    ],
    [
      "get_forecast",
      "Five-day forecast in three-hour steps.",
      { city: "s City name", lat: "n Latitude", lon: "n Longitude", units: "e(metric|imperial) Units" },
    ],
    [
      "get_air_quality",
      "Air quality index and pollutant concentrations at coordinates.",
      { lat: "n! Latitude", lon: "n! Longitude" },
    ],
  ]),
  ...server("acme", [
    [
      "api",
      "Call any endpoint of the Acme internal REST API with a method, path and JSON body. Use when no dedicated tool exists.",
      {
        method: "e(GET|POST|PUT|PATCH|DELETE)! HTTP method",
        path: "s! Path, e.g. /v2/widgets",
        body: "o JSON body",
        query: "o Query parameters",
      },
    ],
    ["list_widgets", "List Acme widgets in inventory with SKU and stock level.", PAGE],
    ["get_widget", "Get one Acme widget by SKU.", { sku: "s! SKU" }],
    ["health", "Report whether the Acme platform and its dependencies are up.", {}],
  ]),
  ...server("mongodb", [
    [
      "find",
      "Find documents in a collection matching a filter.",
      {
        database: "s! Database",
        collection: "s! Collection",
        filter: "o Query filter",
        projection: "o Projection",
        limit: "i Maximum documents",
        sort: "o Sort",
      },
    ],
    [
      "aggregate",
      "Run an aggregation pipeline on a collection.",
      { database: "s! Database", collection: "s! Collection", pipeline: "o! Pipeline stages" },
    ],
    [
      "insert_many",
      "Insert documents into a collection.",
      { database: "s! Database", collection: "s! Collection", documents: "o! Documents" },
    ],
    ["list_collections", "List collections of a database.", { database: "s! Database" }],
    [
      "create_index",
      "Create an index on a collection.",
      { database: "s! Database", collection: "s! Collection", keys: "o! Index keys", unique: "b Unique" },
    ],
    [
      "collection_schema",
      "Infer the schema of a collection from sample documents.",
      { database: "s! Database", collection: "s! Collection", sample_size: "i Documents to sample" },
    ],
  ]),
  ...server("snowflake", [
    [
      "run_query",
      "Execute SQL in a Snowflake warehouse and return the result set.",
      { sql: "s! SQL statement", warehouse: "s Warehouse", database: "s Database", schema: "s Schema" },
    ],
    [
      "list_tables",
      "List tables and views of a schema with row counts.",
      { database: "s! Database", schema: "s! Schema" },
    ],
    ["describe_table", "Describe a table's columns and types.", { table: "s! Fully qualified table name" }],
    [
      "get_query_history",
      "Recent queries with duration, warehouse and credits used.",
      { user: "s User", since: "t From", limit: "i Maximum" },
    ],
  ]),
  ...server("airtable", [
    [
      "list_records",
      "List records of an Airtable table, optionally through a view or formula.",
      {
        base_id: "s! Base ID",
        table: "s! Table name or ID",
        view: "s View",
        filter_by_formula: "s Formula",
        max_records: "i Maximum",
      },
    ],
    [
      "create_records",
      "Create records in a table.",
      { base_id: "s! Base ID", table: "s! Table", records: "o! Records' fields" },
    ],
    [
      "update_records",
      "Update fields of records.",
      { base_id: "s! Base ID", table: "s! Table", records: "o! IDs and fields" },
    ],
    ["list_bases", "List bases the token can access.", {}],
  ]),
  ...server("asana", [
    [
      "create_task",
      "Create an Asana task in a project with assignee and due date.",
      {
        name: "s! Task name",
        project_id: "s Project",
        assignee: "s Assignee email or 'me'",
        due_on: "d Due date",
        notes: "s Description",
      },
    ],
    [
      "list_my_tasks",
      "List tasks assigned to the user, incomplete by default.",
      { completed: "b Include completed", due_before: "d Due before" },
    ],
    ["complete_task", "Mark an Asana task complete.", { task_id: "s! Task ID" }],
    [
      "add_subtask",
      "Add a subtask under a task.",
      { parent_id: "s! Parent task", name: "s! Name", assignee: "s Assignee" },
    ],
    ["get_project_status", "Get the latest status update of a project.", { project_id: "s! Project ID" }],
  ]),
  ...server("trello", [
    [
      "create_card",
      "Create a card on a list of a Trello board.",
      { list_id: "s! List ID", name: "s! Card title", desc: "s Description", due: "t Due date", label_ids: "S Labels" },
    ],
    [
      "move_card",
      "Move a card to another list, e.g. from Doing to Done.",
      { card_id: "s! Card ID", list_id: "s! Destination list" },
    ],
    ["get_board", "Get a board with its lists and cards.", { board_id: "s! Board ID" }],
    ["add_checklist_item", "Add an item to a card's checklist.", { checklist_id: "s! Checklist ID", name: "s! Item" }],
  ]),
  ...server("calendly", [
    [
      "list_scheduled_events",
      "List meetings booked through Calendly.",
      { min_start_time: "t From", max_start_time: "t To", status: "e(active|canceled) Status" },
    ],
    [
      "create_scheduling_link",
      "Create a single-use booking link for an event type.",
      { event_type: "s! Event type URI", max_event_count: "i Bookings allowed (default 1)" },
    ],
    [
      "cancel_event",
      "Cancel a booked meeting and notify the invitee.",
      { event_uuid: "s! Event UUID", reason: "s Reason" },
    ],
  ]),
  ...server("zoom", [
    [
      "create_meeting",
      "Schedule a Zoom meeting and get its join URL and passcode.",
      { topic: "s! Topic", start_time: "t Start", duration: "i Minutes", waiting_room: "b Waiting room" },
    ],
    ["list_recordings", "List cloud recordings in a date range.", { from: "d! From", to: "d! To" }],
    ["get_meeting_transcript", "Get the transcript of a recorded Zoom meeting.", { meeting_id: "s! Meeting ID" }],
  ]),
  ...server("intercom", [
    [
      "list_conversations",
      "List Intercom conversations by state and assignee.",
      { state: "e(open|closed|snoozed) State", assignee_id: "s Admin" },
    ],
    [
      "reply_to_conversation",
      "Reply to a customer conversation as an admin, or add an internal note.",
      { conversation_id: "s! Conversation", body: "s! Reply", message_type: "e(comment|note)! Reply or internal note" },
    ],
    [
      "create_article",
      "Create a help center article.",
      { title: "s! Title", body: "s! HTML body", author_id: "i! Author", state: "e(draft|published) State" },
    ],
    ["tag_contact", "Tag a user or lead.", { contact_id: "s! Contact", tag: "s! Tag name" }],
  ]),
  ...server("cloudflare", [
    [
      "purge_cache",
      "Purge cached files from Cloudflare's edge, all or by URL.",
      { zone_id: "s! Zone ID", files: "S URLs to purge", purge_everything: "b Purge everything" },
    ],
    [
      "list_dns_records",
      "List DNS records of a zone.",
      { zone_id: "s! Zone ID", type: "s Record type", name: "s Name" },
    ],
    [
      "create_dns_record",
      "Create a DNS record (A, AAAA, CNAME, TXT, MX).",
      {
        zone_id: "s! Zone ID",
        type: "s! Type",
        name: "s! Name",
        content: "s! Value",
        ttl: "i TTL",
        proxied: "b Proxy through Cloudflare",
      },
    ],
    [
      "get_zone_analytics",
      "Requests, bandwidth, threats and cache ratio of a zone.",
      { zone_id: "s! Zone ID", since: "t From" },
    ],
    ["deploy_worker", "Upload and deploy a Worker script.", { name: "s! Worker name", script: "s! JavaScript module" }],
  ]),
  ...server("bitbucket", [
    [
      "create_pull_request",
      "Open a pull request in a Bitbucket Cloud repository.",
      {
        workspace: "s! Workspace",
        repo_slug: "s! Repository",
        title: "s! Title",
        source_branch: "s! Source branch",
        destination_branch: "s Destination (default main)",
        reviewers: "S Reviewer UUIDs",
      },
    ],
    [
      "list_pull_requests",
      "List pull requests of a Bitbucket repository by state.",
      { workspace: "s! Workspace", repo_slug: "s! Repository", state: "e(OPEN|MERGED|DECLINED) State" },
    ],
    [
      "approve_pull_request",
      "Approve a Bitbucket pull request.",
      { workspace: "s! Workspace", repo_slug: "s! Repository", pull_request_id: "i! Pull request ID" },
    ],
    [
      "list_pipelines",
      "List Bitbucket Pipelines runs of a repository.",
      { workspace: "s! Workspace", repo_slug: "s! Repository" },
    ],
    [
      "get_file",
      "Read a file from a Bitbucket repository at a commit or branch.",
      { workspace: "s! Workspace", repo_slug: "s! Repository", path: "s! File path", ref: "s Branch or commit" },
    ],
  ]),
  ...server("servicenow", [
    [
      "create_incident",
      "Create a ServiceNow incident with caller, category and impact.",
      {
        short_description: "s! Short description",
        caller_id: "s Caller",
        category: "s Category",
        impact: "e(1|2|3) Impact",
        urgency: "e(1|2|3) Urgency",
      },
    ],
    [
      "update_incident",
      "Update a ServiceNow incident's state, assignment group or work notes.",
      { sys_id: "s! Incident sys_id", state: "s State", assignment_group: "s Group", work_notes: "s Work notes" },
    ],
    [
      "create_change_request",
      "Raise a change request for approval by the change advisory board.",
      {
        short_description: "s! Description",
        type: "e(normal|standard|emergency)! Change type",
        start_date: "t Planned start",
        end_date: "t Planned end",
        risk: "e(high|moderate|low) Risk",
      },
    ],
    ["search_knowledge", "Search ServiceNow knowledge base articles.", { query: "s! Query" }],
    ["get_cmdb_ci", "Look up a configuration item in the CMDB.", { name: "s! CI name" }],
  ]),
  ...server("okta", [
    [
      "list_users",
      "List Okta users, optionally filtered by status or search expression.",
      { search: 's SCIM filter, e.g. profile.department eq "Engineering"', ...PAGE },
    ],
    [
      "create_user",
      "Create an Okta user and optionally activate them.",
      {
        email: "s! Email (login)",
        first_name: "s! First name",
        last_name: "s! Last name",
        activate: "b Send the activation email",
      },
    ],
    [
      "deactivate_user",
      "Deactivate a user: they can no longer sign in and lose app access.",
      { user_id: "s! User ID" },
    ],
    [
      "reset_password",
      "Send a password reset link, or return a one-time reset URL.",
      { user_id: "s! User ID", send_email: "b Email the link" },
    ],
    ["reset_factors", "Reset all MFA factors of a user so they enrol again.", { user_id: "s! User ID" }],
    [
      "add_user_to_group",
      "Add a user to a group, granting its app assignments.",
      { group_id: "s! Group ID", user_id: "s! User ID" },
    ],
    ["list_user_apps", "List the applications assigned to a user.", { user_id: "s! User ID" }],
  ]),
  ...server("mailchimp", [
    [
      "add_list_member",
      "Subscribe an email address to an audience (list).",
      {
        list_id: "s! Audience ID",
        email_address: "s! Email",
        status: "e(subscribed|pending|unsubscribed)! Status",
        merge_fields: "o First name, last name, etc.",
      },
    ],
    [
      "create_campaign",
      "Create a regular email campaign for an audience segment.",
      { list_id: "s! Audience", subject_line: "s! Subject", from_name: "s! From name", segment_id: "i Segment" },
    ],
    [
      "send_campaign",
      "Send a campaign now, or schedule it.",
      { campaign_id: "s! Campaign", schedule_time: "t Send at (omit to send now)" },
    ],
    [
      "get_campaign_report",
      "Opens, clicks, bounces and unsubscribes of a sent campaign.",
      { campaign_id: "s! Campaign" },
    ],
    [
      "unsubscribe_member",
      "Unsubscribe an email address from an audience.",
      { list_id: "s! Audience", email_address: "s! Email" },
    ],
  ]),
  ...server("todoist", [
    [
      "add_task",
      "Add a task to Todoist with natural-language due date.",
      {
        content: "s! Task",
        due_string: "s Due, e.g. tomorrow at 5pm",
        project_id: "s Project",
        priority: "i 1 (normal) to 4 (urgent)",
      },
    ],
    [
      "get_tasks",
      "Get active tasks, filtered with Todoist filter syntax.",
      { filter: "s Filter, e.g. today | overdue" },
    ],
    ["close_task", "Complete a task.", { task_id: "s! Task ID" }],
  ]),
  ...server("1password", [
    [
      "get_item",
      "Get a vault item (login, API credential) and its fields.",
      { vault: "s! Vault", item: "s! Item name or ID", reveal: "b Reveal concealed fields" },
    ],
    ["list_items", "List items in a vault.", { vault: "s! Vault", categories: "S Categories" }],
    [
      "create_item",
      "Store a new login or secure note in a vault.",
      {
        vault: "s! Vault",
        title: "s! Title",
        category: "e(LOGIN|PASSWORD|API_CREDENTIAL|SECURE_NOTE)! Category",
        fields: "o Fields",
      },
    ],
    [
      "generate_password",
      "Generate a strong random password.",
      { length: "i Length (default 24)", symbols: "b Include symbols" },
    ],
  ]),
];
