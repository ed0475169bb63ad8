-- Admins hold every tool and every path from the start, so the first admin can connect an agent and grant
-- others what they need. Other roles hold nothing until an admin grants it (least privilege).
INSERT INTO "grants" ("id", "kind", "pattern", "role", "createdAt")
VALUES ('default-admin-tools', 'TOOL', '*', 'ADMIN', CURRENT_TIMESTAMP),
       ('default-admin-paths', 'PATH', '*', 'ADMIN', CURRENT_TIMESTAMP)
ON CONFLICT ("id") DO NOTHING;
