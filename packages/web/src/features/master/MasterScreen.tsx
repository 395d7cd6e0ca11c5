import type { ComponentType } from 'react';
import { useCurrentRoute } from '../../lib/routeHandle.ts';
import DeviceDetail from './DeviceDetail.tsx';
import DeviceTypeDetail from './DeviceTypeDetail.tsx';
import DeviceTypeList from './DeviceTypeList.tsx';
import DomainDetail from './DomainDetail.tsx';
import DomainList from './DomainList.tsx';
import HistoryList from './HistoryList.tsx';
import MasterOverview from './MasterOverview.tsx';
import ParameterList from './ParameterList.tsx';
import ViewList from './ViewList.tsx';

/** Each master route's screen (route names of `@nemuri/shared/routeAccess`). */
const SCREEN_OF_ROUTE: Readonly<Record<string, ComponentType>> = {
  masterHome: MasterOverview,
  masterParameterLists: ParameterList,
  masterDeviceTypes: DeviceTypeList,
  masterDeviceType: DeviceTypeDetail,
  masterDomainLists: DomainList,
  masterDomainData: DomainDetail,
  masterDomainSleep: DomainDetail,
  masterDomainHistory: DomainDetail,
  masterDevice: DeviceDetail,
  masterViewLists: ViewList,
  masterHistoryLists: HistoryList,
};

/**
 * The master area for the device maker's developers (every route under /master loads this module):
 * picks the route's screen. Developers (100) look into every domain; senior developers (101) also
 * edit the master data.
 */
export default function MasterScreen() {
  const route = useCurrentRoute();
  const Screen = SCREEN_OF_ROUTE[route?.name ?? ''] ?? MasterOverview;
  return <Screen />;
}
