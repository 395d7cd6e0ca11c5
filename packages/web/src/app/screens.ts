import type { ComponentType } from 'react';

type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

// One dynamic import per feature module: each feature becomes its own chunk, fetched only when one
// of its routes is opened.
const homeScreen: ScreenLoader = () => import('../features/home/HomeScreen.tsx');
const roomList: ScreenLoader = () => import('../features/home/RoomListScreen.tsx');
const roomConfig: ScreenLoader = () => import('../features/rooms/RoomConfigScreen.tsx');
const roomDetail: ScreenLoader = () => import('./pages/RoomDetailPage.tsx');
const deviceConfig: ScreenLoader = () => import('../features/devices/DeviceConfigScreen.tsx');
const deviceBorrow: ScreenLoader = () => import('../features/devices/DeviceBorrowScreen.tsx');
const serialNumber: ScreenLoader = () => import('../features/devices/SerialNumberScreen.tsx');
const dataImport: ScreenLoader = () => import('../features/import/DataImportScreen.tsx');
const domainConfig: ScreenLoader = () => import('./pages/DomainConfigPage.tsx');
const report: ScreenLoader = () => import('../features/report/ReportScreen.tsx');
const help: ScreenLoader = () => import('../features/help/HelpScreen.tsx');
const agency: ScreenLoader = () => import('../features/agency/AgencyScreen.tsx');
const monitoring: ScreenLoader = () => import('./pages/MonitoringPage.tsx');
const alertHistory: ScreenLoader = () => import('../features/alertHistory/AlertHistoryScreen.tsx');
const auditLog: ScreenLoader = () => import('../features/auditLog/AuditLogScreen.tsx');
const rawView: ScreenLoader = () => import('../features/monitoring/RawViewScreen.tsx');
const account: ScreenLoader = () => import('./pages/AccountPage.tsx');
const link: ScreenLoader = () => import('../features/account/LinkScreen.tsx');
const master: ScreenLoader = () => import('../features/master/MasterScreen.tsx');
const auth: ScreenLoader = () => import('../features/auth/AuthScreen.tsx');
const login: ScreenLoader = () => import('../features/auth/LoginScreen.tsx');
const signup: ScreenLoader = () => import('../features/auth/SignupScreen.tsx');
const register: ScreenLoader = () => import('../features/auth/RegisterScreen.tsx');
const registerUser: ScreenLoader = () => import('../features/auth/RegisterUserScreen.tsx');
const sso: ScreenLoader = () => import('../features/auth/SsoScreen.tsx');
const ssoProvider: ScreenLoader = () => import('../features/auth/SsoProviderScreen.tsx');

/** The screen of every route that renders one, by route name (see `@nemuri/shared/routeAccess`). */
export const SCREENS: Record<string, ScreenLoader> = {
  home: homeScreen,
  homeCard: roomList,
  homeTable: roomList,
  homeSmallCard: roomList,
  link,
  roomConfigCard: roomConfig,
  roomConfigTable: roomConfig,
  roomConfigSmallCard: roomConfig,
  deviceConfigTable: deviceConfig,
  deviceConfigCard: deviceConfig,
  deviceConfigSmallCard: deviceConfig,
  dataImport,
  domainConfig,
  deviceBorrow,
  report,
  help,
  agencyStatistics: agency,
  agencyDevices: agency,
  agencyBills: agency,
  agencyPartners: agency,
  agencyPartner: agency,
  monitoring,
  alertHistory,
  auditLog,
  monitoringDeviceEmpty: rawView,
  monitoringDeviceRawEit: rawView,
  monitoringDeviceRawRespiAxl: rawView,
  monitoringDeviceRawMulti: rawView,
  monitoringDeviceRawEcg: rawView,
  monitoringDeviceRawImpe: rawView,
  monitoringDeviceRawRespiHr: rawView,
  monitoringDeviceRawButton: rawView,
  monitoringDeviceRawTemparature: rawView,
  monitoringRoomRawRespiAxl: rawView,
  monitoringRoomRawButton: rawView,
  monitoringRoomRawMulti: rawView,
  account_edit: account,
  roomImport: roomDetail,
  roomSleep: roomDetail,
  roomResult: roomDetail,
  roomHistory: roomDetail,
  serialNumber,
  masterHome: master,
  masterParameterLists: master,
  masterDeviceType: master,
  masterDeviceTypes: master,
  masterDomainLists: master,
  masterDomainData: master,
  masterDomainSleep: master,
  masterDomainHistory: master,
  masterDevice: master,
  masterViewLists: master,
  masterHistoryLists: master,
  login,
  mfaauth: auth,
  sso,
  ssoProvider,
  handleauth: auth,
  signup,
  anonymous: auth,
  register,
  registerUser,
  RegisterReportAccessUser: auth,
};

/**
 * Screens drawn with only the first part of the translations (locales/translationParts.ts): the
 * sign-in page, where every signed-out visit lands. Every other screen waits for the rest.
 */
export const FIRST_PAGE_SCREENS: ReadonlySet<string> = new Set(['login']);
