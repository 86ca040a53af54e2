// The floor of bench:automation: a workflow that does nothing, started directly by the client.
export async function trivial(): Promise<void> {
  // Nothing: its cost is Temporal's own (a start, one workflow task, a completion).
}
