import dns2, { Packet } from 'dns2';

type Answer =
  | { type: 'TXT'; value: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'A'; address: string }
  | { type: 'AAAA'; address: string };

/**
 * A real DNS server (UDP, on 127.0.0.1) whose zone the test edits as it goes: publish or remove
 * records and the service's resolver (DNS_SERVERS) sees them on its next lookup. A name with no
 * record at all answers NXDOMAIN; a known name without the asked type answers no data. Given
 * `zones`, it answers only for names in them and REFUSED for the rest, so a worker that rechecks
 * every domain of the shared database finds other test files' domains unreachable (which changes
 * nothing), not gone (which would flag them).
 */
export async function startDnsServer({ zones }: { zones?: string[] } = {}) {
  const inZones = (name: string): boolean =>
    !zones || zones.some((zone) => name === zone || name.endsWith(`.${zone}`));
  const zone = new Map<string, Answer[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      const answers = zone.get(name);
      if (!inZones(name))
        response.header.rcode = 5; // REFUSED
      else if (!answers) response.header.rcode = 3; // NXDOMAIN
      for (const answer of answers ?? []) {
        const base = { name: question?.name ?? name, class: Packet.CLASS.IN, ttl: 1 };
        if (answer.type === 'TXT' && question?.type === Packet.TYPE.TXT) {
          // A TXT value travels as character-strings of at most 255 octets.
          response.answers.push({
            ...base,
            type: Packet.TYPE.TXT,
            data: answer.value.match(/.{1,255}/g) ?? [''],
          } as never);
        } else if (answer.type === 'MX' && question?.type === Packet.TYPE.MX) {
          response.answers.push({
            ...base,
            type: Packet.TYPE.MX,
            exchange: answer.exchange,
            priority: answer.priority,
          } as never);
        } else if (answer.type === 'A' && question?.type === Packet.TYPE.A) {
          response.answers.push({ ...base, type: Packet.TYPE.A, address: answer.address } as never);
        } else if (answer.type === 'AAAA' && question?.type === Packet.TYPE.AAAA) {
          response.answers.push({
            ...base,
            type: Packet.TYPE.AAAA,
            address: answer.address,
          } as never);
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('The DNS server did not bind');
  const add = (name: string, answer: Answer): void => {
    const key = name.toLowerCase();
    zone.set(key, [...(zone.get(key) ?? []), answer]);
  };
  return {
    address: `127.0.0.1:${port}`,
    publishTxt: (name: string, value: string): void => add(name, { type: 'TXT', value }),
    publishMx: (name: string, exchange: string, priority = 10): void =>
      add(name, { type: 'MX', exchange, priority }),
    publishA: (name: string, address: string): void => add(name, { type: 'A', address }),
    /** Removes the TXT records of a name (other types stay). */
    removeTxt(name: string): void {
      const key = name.toLowerCase();
      const rest = (zone.get(key) ?? []).filter((a) => a.type !== 'TXT');
      if (rest.length) zone.set(key, rest);
      else zone.delete(key);
    },
    stop: () => server.close(),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;
