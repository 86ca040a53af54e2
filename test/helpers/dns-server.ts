import dns2, { Packet } from 'dns2';

type TxtValue = string;

/**
 * A real DNS server (UDP, on 127.0.0.1) whose zone the test edits as it goes: publish or remove
 * TXT records and the service's resolver (DNS_SERVERS) sees them on its next lookup.
 */
export async function startDnsServer() {
  const txt = new Map<string, TxtValue[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      const values = txt.get(name);
      if (question && question.type === Packet.TYPE.TXT && values) {
        for (const value of values) {
          // A TXT value travels as character-strings of at most 255 octets.
          const chunks = value.match(/.{1,255}/g) ?? [''];
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data: chunks,
          } as never);
        }
      } else if (!values) {
        response.header.rcode = 3; // NXDOMAIN
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('The DNS server did not bind');
  return {
    address: `127.0.0.1:${port}`,
    publishTxt(name: string, value: string): void {
      const key = name.toLowerCase();
      txt.set(key, [...(txt.get(key) ?? []), value]);
    },
    removeTxt(name: string): void {
      txt.delete(name.toLowerCase());
    },
    stop: () => server.close(),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;
