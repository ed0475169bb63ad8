// The reserved bridge "servers" the program prelude calls for `workspace.*` and `skills.*` (a slug cannot start
// with $, so no upstream can take them). Their calls are workspace operations, not tool calls: they are counted
// and bounded apart, so a run's toolCalls is the number of tools it called. (The sandbox's runner, which
// cannot import, knows them as the servers whose name starts with "$".)
export const WORKSPACE_SERVER = "$workspace";
export const SKILLS_SERVER = "$skills";

export const isPreludeServer = (server: string): boolean => server === WORKSPACE_SERVER || server === SKILLS_SERVER;
