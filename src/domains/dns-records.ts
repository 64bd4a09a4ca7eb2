/**
 * The DNS records a space publishes for its own domain, and how each one is judged at a check.
 * Values are built at read time from the domain's stored token and DKIM public keys and from the
 * configuration (MX and SPF hosts), so an operator's change of host shows in every domain at once.
 *
 * A record's `state` at the last check: `found` (the expected value is there), `different` (records of
 * that name and type exist, none with the expected value; `seen` holds what is there), `absent` (no such
 * record, or never checked yet: `last_checked_at` of the domain is then null).
 */
import type { Config } from '../config.js';
import type { Dns } from './dns.js';

export type RecordState = 'found' | 'absent' | 'different';
export type RecordRole = 'ownership' | 'dkim' | 'spf' | 'mx' | 'dmarc';

export interface DomainRecord {
  label: string;
  name: string;
  note: string;
  required: boolean;
  role: RecordRole;
  seen: string | null;
  state: RecordState;
  type: 'TXT' | 'MX';
  value: string;
}

export interface Check {
  state: RecordState;
  seen: string | null;
}

/** Checks by record key (`<type> <name>`), as stored in the domain's `checks` field. */
export type Checks = Record<string, Check>;

export const DKIM_SELECTORS = ['mbx1', 'mbx2'] as const;
const OWNERSHIP_NAME = '_mailbox';
const OWNERSHIP_PREFIX = 'mailbox-verification=';
const ADVISED_DMARC = 'v=DMARC1; p=none';
const MX_PRIORITY = 10;

/** What records are built from: the domain's own data. */
export interface RecordSource {
  domain: string;
  token: string;
  /** base64 SubjectPublicKeyInfo (DER) of each selector's key, in DKIM_SELECTORS order. */
  dkim_public: string[];
}

interface Expected extends Omit<DomainRecord, 'seen' | 'state'> {
  judge(dns: Dns): Promise<Check>;
}

export const recordKey = (record: { type: string; name: string }): string => `${record.type} ${record.name}`;

const shown = (values: string[]): string | null => (values.length ? values.join(' | ') : null);

/** The `p=` tag of a DKIM record, without the spaces some DNS consoles insert. */
const dkimKeyOf = (record: string): string | null => {
  const tag = record
    .split(';')
    .map((part) => part.trim())
    .find((part) => /^p\s*=/i.test(part));
  return tag ? tag.replace(/^p\s*=/i, '').replace(/\s+/g, '') : null;
};

/** Records at a name: `found` if one passes `good`, else `different` with what is there, else `absent`. */
async function judgeTxt(
  dns: Dns,
  name: string,
  relevant: (v: string) => boolean,
  good: (v: string) => boolean,
): Promise<Check> {
  const values = (await dns.txt(name)).filter(relevant);
  if (values.some(good)) return { state: 'found', seen: values.find(good)! };
  return { state: values.length ? 'different' : 'absent', seen: shown(values) };
}

export function expectedRecords(source: RecordSource, config: Config): Expected[] {
  const { domain } = source;
  const ownership = `${OWNERSHIP_PREFIX}${source.token}`;
  const spfInclude = `include:${config.spfHost}`;
  const records: Expected[] = [
    {
      label: 'Preuve de propriété',
      name: `${OWNERSHIP_NAME}.${domain}`,
      note: "Prouve que le domaine est à vous. Le premier espace qui publie sa preuve obtient le domaine ; l'enregistrement peut rester en place.",
      required: true,
      role: 'ownership',
      type: 'TXT',
      value: ownership,
      judge: (dns) =>
        judgeTxt(
          dns,
          `${OWNERSHIP_NAME}.${domain}`,
          () => true,
          (v) => v.trim() === ownership,
        ),
    },
    ...DKIM_SELECTORS.map((selector, i): Expected => {
      const key = source.dkim_public[i]!;
      const name = `${selector}._domainkey.${domain}`;
      return {
        label: `Clé DKIM ${i + 1} (${selector})`,
        name,
        note: "Signe vos envois. Copiez la valeur entière ; si votre hébergeur DNS la coupe en plusieurs morceaux, c'est normal.",
        required: true,
        role: 'dkim',
        type: 'TXT',
        value: `v=DKIM1; k=rsa; p=${key}`,
        judge: (dns) =>
          judgeTxt(
            dns,
            name,
            () => true,
            (v) => dkimKeyOf(v) === key,
          ),
      };
    }),
    {
      label: 'SPF',
      name: domain,
      note: `Autorise le service à envoyer pour le domaine. S'il existe déjà un enregistrement « v=spf1 », ajoutez-y ${spfInclude} au lieu d'en créer un second.`,
      required: true,
      role: 'spf',
      type: 'TXT',
      value: `v=spf1 ${spfInclude} ~all`,
      judge: (dns) =>
        judgeTxt(
          dns,
          domain,
          (v) => /^v=spf1(\s|$)/i.test(v.trim()),
          (v) =>
            v
              .toLowerCase()
              .split(/\s+/)
              .some((term) => term.replace(/^\+/, '') === spfInclude),
        ),
    },
    {
      label: 'MX (réception)',
      name: domain,
      note: `Achemine le courrier reçu vers le service. Priorité ${MX_PRIORITY} ; retirez les autres MX si le domaine ne reçoit que par ici.`,
      required: true,
      role: 'mx',
      type: 'MX',
      value: config.mxHost,
      judge: async (dns) => {
        const mx = await dns.mx(domain);
        if (mx.some((m) => m.exchange === config.mxHost)) return { state: 'found', seen: config.mxHost };
        return { state: mx.length ? 'different' : 'absent', seen: shown(mx.map((m) => `${m.priority} ${m.exchange}`)) };
      },
    },
    {
      label: 'DMARC (conseillé)',
      name: `_dmarc.${domain}`,
      note: "Conseillé, pas requis : dit aux destinataires quoi faire d'un message qui se réclame du domaine sans être authentifié. Tout enregistrement DMARC convient.",
      required: false,
      role: 'dmarc',
      type: 'TXT',
      value: ADVISED_DMARC,
      judge: (dns) =>
        judgeTxt(
          dns,
          `_dmarc.${domain}`,
          () => true,
          (v) => /^v=DMARC1(\s*;|$)/i.test(v.trim()),
        ),
    },
  ];
  return records;
}

/** Queries every record at once; one failed resolution fails the whole check (`dns_unavailable`). */
export async function judgeRecords(dns: Dns, expected: Expected[]): Promise<Checks> {
  const checks = await Promise.all(expected.map((record) => record.judge(dns)));
  return Object.fromEntries(expected.map((record, i) => [recordKey(record), checks[i]!]));
}

/** The records of the domain object: what to publish and what the last check saw. */
export const recordViews = (expected: Expected[], checks: Checks): DomainRecord[] =>
  expected.map(({ judge: _judge, ...record }) => ({
    ...record,
    ...(checks[recordKey(record)] ?? { state: 'absent', seen: null }),
  }));

/** Required records not found: a pending domain stays pending, a verified one is suspended. */
export const missingRequired = (records: DomainRecord[]): DomainRecord[] =>
  records.filter((r) => r.required && r.state !== 'found');
