import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Bulk data import. Shows the route's title until its issue fills the screen. */
export default function DataImportScreen() {
  return <ScreenPage />;
}
