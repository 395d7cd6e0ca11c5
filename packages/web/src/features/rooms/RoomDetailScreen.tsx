import { useParams } from 'react-router';
import { useCurrentRoute } from '../../app/routeHandle.ts';
import { RoomHistoryPanel } from '../import/RoomHistoryPanel.tsx';
import { RoomImportPanel } from '../import/RoomImportPanel.tsx';
import { RoomResultScreen } from './RoomResultScreen.tsx';
import { RoomSleepScreen } from './RoomSleepScreen.tsx';
import { RoomPage } from './RoomTabs.tsx';

/** One room: sleep, result, import and upload history, chosen by the matched child route. */
export default function RoomDetailScreen() {
  const route = useCurrentRoute();
  const roomId = useParams().roomid ?? '';
  switch (route?.name) {
    case 'roomResult':
      return <RoomResultScreen key={roomId} roomId={roomId} />;
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
      return <RoomSleepScreen key={roomId} roomId={roomId} />;
  }
}
