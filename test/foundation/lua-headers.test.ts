/** Every script opens with a header naming each KEYS[i] and ARGV[i] it uses, and what it returns. */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { readScripts } from '../../src/redis/scripts.js';

for (const script of readScripts()) {
  t.test(script.name, async (t) => {
    const own = readFileSync(script.path, 'utf8');
    const header = /^--\[\[([\s\S]*?)\]\]/.exec(own)?.[1] ?? '';
    t.ok(header, 'opens with a --[[ ... ]] header');
    const body = own.slice(own.indexOf(']]') + 2);
    for (let i = 1; i <= script.numberOfKeys; i++) t.match(header, new RegExp(`KEYS\\[${i}\\] `), `KEYS[${i}] documented`);
    t.notMatch(header, new RegExp(`KEYS\\[${script.numberOfKeys + 1}\\]`), 'no more KEYS documented than the name says');
    const used = new Set([...body.matchAll(/ARGV\[(\d+)\]/g)].map((m) => Number(m[1])));
    for (const i of used) t.match(header, new RegExp(`ARGV\\[${i}\\] `), `ARGV[${i}] documented`);
    const keysUsed = [...body.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1]));
    t.ok(keysUsed.every((i) => i <= script.numberOfKeys), 'uses no KEYS beyond its count');
    t.match(header, /Returns /, 'documents its replies');
    t.notMatch(body, /redis\.call\('TIME'\)/, 'never reads the server clock');
  });
}
