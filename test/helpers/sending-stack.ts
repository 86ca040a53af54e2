import { startDnsServer, type DnsServer } from './dns-server.js';
import { startStack, type TestStack } from './stack.js';

/** The SPF include the sending tests' domains publish. */
export const SENDING_SPF_INCLUDE = '_spf.mailwright.test';

/**
 * A test file's stack with a DNS server of its own, so its domains can be verified and send
 * mail. `stop` ends both.
 */
export async function startSendingStack(
  env: Record<string, string> = {},
): Promise<{ dns: DnsServer; stack: TestStack; stop: () => Promise<void> }> {
  const dns = await startDnsServer();
  try {
    const stack = await startStack({
      env: { DNS_SERVERS: dns.address, SPF_INCLUDE: SENDING_SPF_INCLUDE, ...env },
    });
    return {
      dns,
      stack,
      stop: async () => {
        await stack.stop();
        await dns.stop();
      },
    };
  } catch (error) {
    await dns.stop();
    throw error;
  }
}
