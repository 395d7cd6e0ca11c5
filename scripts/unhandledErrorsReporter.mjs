// A vitest reporter that writes the run's unhandled errors (rejections and exceptions outside any
// test's own failure) to the JSON file named by NEMURI_UNHANDLED_ERRORS_FILE: the JSON reporter
// leaves them out, so `npm test` could only say that the step failed, not where.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_testModules, unhandledErrors) {
    const file = process.env.NEMURI_UNHANDLED_ERRORS_FILE;
    if (file === undefined) return;
    const errors = unhandledErrors.map((error) => ({
      message: String(error?.message ?? error)
        .split('\n')[0]
        .slice(0, 300),
      // Set by vitest on an error it could trace to a test file and test.
      testPath: typeof error?.VITEST_TEST_PATH === 'string' ? error.VITEST_TEST_PATH : null,
      testName: typeof error?.VITEST_TEST_NAME === 'string' ? error.VITEST_TEST_NAME : null,
    }));
    writeFileSync(file, JSON.stringify(errors));
  }
}
