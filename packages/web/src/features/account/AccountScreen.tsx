import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Account information and sign-in provider links. Shows the route's title until its issue fills the screen. */
export default function AccountScreen() {
  return <ScreenPage />;
}
