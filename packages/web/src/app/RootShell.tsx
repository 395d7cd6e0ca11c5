import { Outlet } from 'react-router';
import { ConnectivityNotice } from './shell/ConnectivityNotice.tsx';
import { ScrollToTop } from './shell/ScrollToTop.tsx';
import { UpdateNotice } from './shell/UpdateNotice.tsx';

/** What every page has: scroll reset, the offline notice and the update notice. */
export function RootShell() {
  return (
    <>
      <ScrollToTop />
      <ConnectivityNotice />
      <UpdateNotice />
      <Outlet />
    </>
  );
}
