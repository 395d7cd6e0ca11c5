import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Live view of all rooms for the nurse station. Shows the route's title until its issue fills the screen. */
export default function MonitoringScreen() {
  return <ScreenPage />;
}
