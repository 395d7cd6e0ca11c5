// The simulator's public API: `import { startSimulation, demoSecret } from '@nemuri/simulator/index'`.
export { startSimulation, serialsFor, SPREAD_GROUP, SPREAD_MS, type Simulation, type SimulationOptions, type SimulationStats } from './simulation.ts';
export { demoSecret, readSecretsFile, DEMO_SECRET_KEY } from './secrets.ts';
export { DeviceSimulator, type DeviceOptions, type DeviceSecond } from './device.ts';
export {
  encodeSecond,
  encodeSecondMulti,
  encodeMessages,
  MESSAGE_SHAPES,
  SequenceCounters,
  SIMULATED_CHANNELS,
  CHANNEL_ENCODING,
  type EncodedFrame,
  type EncodedMessage,
  type MessageShape,
  type SimulatedChannel,
} from './frames.ts';
export { createTimeline, stateAt, scenarioSecond, type ScenarioState, type ScenarioTimeline } from './scenario.ts';
export { loadEitRecording, EIT_REPLAY_FILE } from './eit.ts';
