import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Printable sleep reports. Shows the route's title until its issue fills the screen. */
export default function ReportScreen() {
  return <ScreenPage />;
}
