import { getPriority, setPriority } from 'node:os';

/**
 * Lowers this process's CPU priority to `nice` (0 to 19; 0 leaves it as it was started) and
 * answers the nice value it runs at, with the system's refusal if there was one (a sandbox that
 * forbids setpriority): the process then runs on at the priority it has. The worker runs below
 * the API: on a machine they share, when both want the CPU (a campaign sending while requests
 * come in), requests are answered first and the sending takes what is left; either one alone
 * still has the whole machine. Linux keeps a nice value per thread and a new thread inherits its
 * creator's, so this is called before the Temporal runtime and the thread pool start their
 * threads. A process started nicer than asked stays so (going back up needs privileges).
 */
export function lowerProcessPriority(nice: number): { nice: number; refused?: unknown } {
  try {
    if (nice > getPriority()) setPriority(nice);
    return { nice: getPriority() };
  } catch (refused) {
    return { nice: getPriority(), refused };
  }
}
