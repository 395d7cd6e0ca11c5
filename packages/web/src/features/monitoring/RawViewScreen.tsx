import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Live raw signal views of one device or room. Shows the route's title until its issue fills the screen. */
export default function RawViewScreen() {
  return <ScreenPage />;
}
