import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Device configuration lists. Shows the route's title until its issue fills the screen. */
export default function DeviceConfigScreen() {
  return <ScreenPage />;
}
