import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCurrentRoute } from '../../app/routeHandle.ts';
import { RoomResultScreen } from './RoomResultScreen.tsx';
import { RoomSleepScreen } from './RoomSleepScreen.tsx';
import { RoomPage, type RoomTab } from './RoomTabs.tsx';

/** One room: sleep, result, import and upload history, chosen by the matched child route. */
export default function RoomDetailScreen() {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  const roomId = useParams().roomid ?? '';
  switch (route?.name) {
    case 'roomResult':
      return <RoomResultScreen key={roomId} roomId={roomId} />;
    case 'roomImport':
    case 'roomHistory': {
      // Import and history come with their own part of the issue; until then the tabs and a notice.
      const tab: RoomTab = route.name === 'roomImport' ? 'import' : 'history';
      return (
        <RoomPage roomId={roomId} tab={tab}>
          {() => <Text c="dimmed">{t('screen.pending')}</Text>}
        </RoomPage>
      );
    }
    default:
      return <RoomSleepScreen key={roomId} roomId={roomId} />;
  }
}
