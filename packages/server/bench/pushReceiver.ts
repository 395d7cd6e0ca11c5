// The push service of bench:notify in a process of its own (a real one is another machine): the
// stand-in of the tests answering 201 without decrypting, driven over IPC by notify.bench.ts.
//   → { subscribe: n }            ← { origin, subscriptions: [{ endpoint, keys }] }
//   → { waitFor: count }          ← { arrivals: [epoch ms with fractions, …] } (the first `count`)
import { PushServiceStandIn } from '../src/notifications/testing/pushServiceStandIn.ts';

type Request = { subscribe: number } | { waitFor: number };

const push = await PushServiceStandIn.start();
push.verify = false;
const reply = (message: unknown) => process.send?.(message);
process.on('message', (request: Request) => {
  if ('subscribe' in request) {
    reply({ origin: push.origin, subscriptions: Array.from({ length: request.subscribe }, () => push.subscribe()) });
    return;
  }
  void push.waitFor(request.waitFor).then(() => reply({ arrivals: push.arrivals.slice(0, request.waitFor).map((at) => performance.timeOrigin + at) }));
});
process.on('disconnect', () => void push.close().then(() => process.exit(0)));
reply({ ready: true });
