import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Master area for the device maker's developers. Shows the route's title until its issue fills the screen. */
export default function MasterScreen() {
  return <ScreenPage />;
}
