import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Room configuration lists. Shows the route's title until its issue fills the screen. */
export default function RoomConfigScreen() {
  return <ScreenPage />;
}
