import { NightSummaryPanel } from '../../features/alertHistory/NightSummaryPanel.tsx';
import { MonitoringScreen } from '../../features/monitoring/MonitoringScreen.tsx';

/** /monitoring: the station, with the alert history feature's summary of last night below it. */
export default function MonitoringPage() {
  return <MonitoringScreen nightSummary={<NightSummaryPanel />} />;
}
