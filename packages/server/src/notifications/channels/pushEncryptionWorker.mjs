// Entry of the push encryption worker thread: TypeScript is loaded the way the server loads it (tsx),
// whether the parent runs under `npm start` or under the test runner.
import { register } from 'tsx/esm/api';

register();
await import('./pushEncryptionWorkerMain.ts');
