import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Agency area: statistics, devices, bills, partners. Shows the route's title until its issue fills the screen. */
export default function AgencyScreen() {
  return <ScreenPage />;
}
