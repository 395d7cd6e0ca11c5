/**
 * Start-up work done before the first render. Each step that fails is logged to the console and
 * the app starts anyway (specification section 9: start-up setup failure is logged only).
 */
export interface StartupStep {
  name: string;
  run: () => Promise<void> | void;
}

export async function runStartup(steps: StartupStep[]): Promise<string[]> {
  const failed: string[] = [];
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      failed.push(step.name);
      console.error(`[startup] ${step.name} failed; continuing without it`, error);
    }
  }
  return failed;
}
