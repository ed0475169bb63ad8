// The tools the gateway itself offers on every agent endpoint (task and approval tools), as opposed to the
// upstream servers' tools.
import { isApprovalTool } from "../approvals/approval-tools";
import { isTaskTool } from "../tasks/task-tools";

export const isGatewayTool = (name: string): boolean => isTaskTool(name) || isApprovalTool(name);
