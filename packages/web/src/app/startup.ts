/**
 * Start-up work done before the first render. Each step that fails is logged to the console and
 * the app starts anyway (specification section 9: start-up setup failure is logged only).
 * The steps run at the same time: on a slow network each one is mostly a round trip, and the first
 * page should wait for the slowest of them, not for their sum.
 */
export interface StartupStep {
  name: string;
  run: () => Promise<void> | void;
}

export async function runStartup(steps: StartupStep[]): Promise<string[]> {
  const outcomes = await Promise.all(
    steps.map(async (step) => {
      try {
        await step.run();
        return null;
      } catch (error) {
        console.error(`[startup] ${step.name} failed; continuing without it`, error);
        return step.name;
      }
    }),
  );
  return outcomes.filter((name): name is string => name !== null);
}
