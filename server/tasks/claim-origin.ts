/**
 * The origin of a row that only claims a call running in a gateway process (so that an identical call waits for
 * it instead of running too): not yet a task, and listed nowhere. Deleted when the call is answered in time,
 * unless someone was handed its id meanwhile (then it became a task, origin "threshold").
 */
export const CLAIM_ORIGIN = "claim";
