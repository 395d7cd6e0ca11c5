import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Lending devices to domains. Shows the route's title until its issue fills the screen. */
export default function DeviceBorrowScreen() {
  return <ScreenPage />;
}
