import { ScreenPage } from '../../components/ScreenPage.tsx';

/** Domain configuration: basic info, staff, dates, numbers. Shows the route's title until its issue fills the screen. */
export default function DomainConfigScreen() {
  return <ScreenPage />;
}
