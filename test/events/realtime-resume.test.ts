/**
 * The realtime socket's promise across front ends: while 1000 events are emitted, a client reading
 * them is killed mid-stream and reconnects to another front end process with its last next_cursor,
 * whose process is then killed in turn; it ends with every event exactly once, in emission order.
 * The two front ends are `mailbox serve --role http` in their own processes, one on uWS and one on
 * node:http (the `ws` server), sharing this file's Redis.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { resumeInbox, suspendInbox } from '../../actors/inbox.js';
import { testRedisTarget } from '../helpers/redis.js';
import { startService } from '../helpers/service.js';
import { openSocket, type SocketClient } from '../helpers/socket.js';
import { streamEnvelopes } from '../helpers/events.js';
import { servedFrontEnd, type ServedFrontEnd } from '../helpers/front-end.js';

const svc = await startService({ redis: await testRedisTarget() });

t.test(
  'a client killed mid-stream, then its front end killed, resumes from its cursor: 1000 events exactly once, in order',
  async (t) => {
    const [onUws, onNode] = await Promise.all([servedFrontEnd('uws'), servedFrontEnd('node')]);
    const { apiKey, spaceId } = await svc.space({ plan: 'pro' });
    const boxes = await Promise.all(
      Array.from(
        { length: 10 },
        async () =>
          (
            await svc.call(apiKey, 'create_inbox', {
              username: `boite-${randomBytes(3).toString('hex')}`,
              display_name: 'Boîte',
            })
          ).body.id as string,
      ),
    );
    let cursor = (await svc.call(apiKey, 'event_feed')).body.next_cursor as string;

    const seen: string[] = [];
    const follow = async (front: ServedFrontEnd): Promise<SocketClient> => {
      const socket = await openSocket(front.url, apiKey);
      socket.send({ type: 'subscribe', after: cursor });
      return socket;
    };
    /** Reads events until `count` in all are seen, keeping each next_cursor as the client would. */
    const readUntil = async (socket: SocketClient, count: number) => {
      while (seen.length < count) {
        const message = await socket.next();
        if (message.type !== 'event') continue;
        seen.push(message.event.id);
        cursor = message.next_cursor;
      }
    };

    let emitting = true;
    const emitters = Promise.all(
      boxes.map(async (box) => {
        for (let i = 0; i < 100; i++) {
          await suspendInbox(svc.rt, spaceId, box, `n° ${i}`);
          await resumeInbox(svc.rt, spaceId, box);
        }
      }),
    ).finally(() => (emitting = false));

    const first = await follow(onUws);
    await readUntil(first, 250);
    first.ws.terminate();
    const killedWhileEmitting = emitting;

    const second = await follow(onNode);
    await readUntil(second, 500);
    onNode.process.kill('SIGKILL');
    t.equal((await second.closed).code, 1006, 'the front end died under the socket');

    const third = await follow(onUws);
    await readUntil(third, 1000);
    await emitters;
    third.ws.terminate();

    const stream = (await streamEnvelopes(svc.rt, spaceId)).map((e) => e.id);
    t.equal(stream.length, 1000);
    t.equal(new Set(seen).size, seen.length, 'no event twice');
    t.same(seen, stream, 'every event, in emission order');
    t.comment(`the client was killed ${killedWhileEmitting ? 'while' : 'after'} the events were emitted`);
  },
);
