import { useParams } from 'react-router';
import { RoomHistoryPanel } from '../../features/import/RoomHistoryPanel.tsx';
import { RoomImportPanel } from '../../features/import/RoomImportPanel.tsx';
import { RoomNightSummary } from '../../features/alertHistory/NightSummaryPanel.tsx';
import { ReportDownloads } from '../../features/report/ReportDownloads.tsx';
import { RoomResultScreen } from '../../features/rooms/RoomResultScreen.tsx';
import { RoomSleepScreen } from '../../features/rooms/RoomSleepScreen.tsx';
import { RoomPage } from '../../features/rooms/RoomTabs.tsx';
import { useCurrentRoute } from '../../lib/routeHandle.ts';

/** One room: sleep, result (with the report feature's downloads), import and upload history, chosen by the matched child route. */
export default function RoomDetailPage() {
  const route = useCurrentRoute();
  const roomId = useParams().roomid ?? '';
  switch (route?.name) {
    case 'roomResult':
      return <RoomResultScreen key={roomId} roomId={roomId} downloads={(selection) => <ReportDownloads selection={selection} print={false} />} />;
    case 'roomImport':
      return (
        <RoomPage roomId={roomId} tab="import">
          {() => <RoomImportPanel roomId={roomId} />}
        </RoomPage>
      );
    case 'roomHistory':
      return (
        <RoomPage roomId={roomId} tab="history">
          {() => <RoomHistoryPanel roomId={roomId} />}
        </RoomPage>
      );
    default:
      return <RoomSleepScreen key={roomId} roomId={roomId} nightSummary={(night) => <RoomNightSummary {...night} />} />;
  }
}
