import { ScreenPage } from '../../components/ScreenPage.tsx';

/** QR code entry by serial number. Shows the route's title until its issue fills the screen. */
export default function SerialNumberScreen() {
  return <ScreenPage />;
}
