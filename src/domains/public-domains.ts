/**
 * Public mail domains (webmail and ISP mailboxes): add_domain refuses them and their subdomains
 * (`public_mail_domain`), since no space owns them. Maintained by hand; add a domain when a provider
 * comes up. `name.*` stands for the provider's name under any country or generic suffix
 * (hotmail.fr, hotmail.co.uk...).
 */
const EXACT = [
  // Google, Microsoft, Apple, Yahoo, AOL
  'gmail.com', 'googlemail.com', 'msn.com', 'passport.com', 'icloud.com', 'me.com', 'mac.com',
  'ymail.com', 'rocketmail.com', 'aim.com', 'verizon.net', 'att.net', 'sbcglobal.net', 'comcast.net',
  // Privacy-minded and independent providers
  'proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me', 'tutanota.com', 'tutanota.de', 'tuta.io', 'tuta.com',
  'mailbox.org', 'posteo.de', 'posteo.net', 'fastmail.com', 'fastmail.fm', 'hey.com', 'runbox.com', 'disroot.org', 'riseup.net',
  'zoho.com', 'zohomail.com', 'zohomail.eu', 'mail.com', 'email.com', 'usa.com', 'hushmail.com', 'lavabit.com',
  // France
  'orange.fr', 'wanadoo.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'neuf.fr', 'cegetel.net', 'club-internet.fr', 'numericable.fr',
  'bbox.fr', 'bouyguestelecom.fr', 'aliceadsl.fr', 'noos.fr', 'voila.fr', 'libertysurf.fr', 'tiscali.fr', 'ovh.fr',
  // Rest of Europe
  'web.de', 't-online.de', 'freenet.de', 'arcor.de', 'online.de', '1und1.de', 'telenet.be', 'skynet.be', 'proximus.be',
  'libero.it', 'virgilio.it', 'tiscali.it', 'alice.it', 'tin.it', 'bluewin.ch', 'sunrise.ch', 'seznam.cz', 'centrum.cz',
  'wp.pl', 'o2.pl', 'onet.pl', 'interia.pl', 'btinternet.com', 'sky.com', 'virginmedia.com', 'talktalk.net', 'ntlworld.com',
  'telefonica.net', 'terra.es', 'sapo.pt', 'ziggo.nl', 'kpnmail.nl', 'home.nl', 'planet.nl', 'telia.com', 'online.no', 'abv.bg',
  // Russia, Asia, Americas
  'mail.ru', 'inbox.ru', 'list.ru', 'bk.ru', 'rambler.ru', 'ya.ru', 'qq.com', 'foxmail.com', '163.com', '126.com', 'yeah.net',
  'sina.com', 'sina.cn', 'sohu.com', 'aliyun.com', '139.com', 'naver.com', 'daum.net', 'hanmail.net', 'nate.com',
  'rediffmail.com', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'ig.com.br', 'shaw.ca', 'rogers.com', 'sympatico.ca',
  'bigpond.com', 'optusnet.com.au', 'xtra.co.nz',
];

/** Providers present under many suffixes: `hotmail` covers hotmail.com, hotmail.fr, hotmail.co.uk... */
const ANY_SUFFIX = ['hotmail', 'live', 'windowslive', 'yahoo', 'gmx', 'yandex', 'outlook', 'aol'];

/** The suffixes those providers use: a known list, so `live.acme.io` (a company's subdomain) stays allowed. */
const SUFFIXES = new Set([
  'com', 'net', 'org', 'fr', 'de', 'it', 'es', 'be', 'nl', 'ch', 'at', 'lu', 'ie', 'pt', 'pl', 'cz', 'sk', 'hu', 'ro', 'gr',
  'se', 'dk', 'no', 'fi', 'ru', 'ua', 'by', 'kz', 'tr', 'ca', 'mx', 'ar', 'cl', 'in', 'jp', 'cn', 'hk', 'tw', 'sg', 'ph', 'id',
  'my', 'vn', 'th', 'kr', 'eu', 'co.uk', 'co.jp', 'co.in', 'co.id', 'co.th', 'co.kr', 'co.nz', 'co.za', 'com.au', 'com.br',
  'com.ar', 'com.mx', 'com.tr', 'com.sg', 'com.hk', 'com.tw', 'com.ph', 'com.my', 'com.vn', 'com.cn', 'com.ua', 'net.au',
]);

const exact = new Set(EXACT);

/** True for a public mail domain or any subdomain of one (`mx.gmail.com`). */
export function isPublicMailDomain(domain: string): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join('.');
    if (exact.has(candidate)) return true;
    if (ANY_SUFFIX.includes(labels[i]!) && SUFFIXES.has(labels.slice(i + 1).join('.'))) return true;
  }
  return false;
}
