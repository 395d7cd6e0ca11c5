import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Home room list in card, table and small-card layouts. Shows the route's title until its issue fills the screen. */
export default function RoomListScreen() {
  return <ScreenPage />;
}
