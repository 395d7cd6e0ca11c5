import { ScreenPage } from '../../components/ScreenPage.tsx';

/** One room: sleep, result, import and upload history. Shows the route's title until its issue fills the screen. */
export default function RoomDetailScreen() {
  return <ScreenPage />;
}
