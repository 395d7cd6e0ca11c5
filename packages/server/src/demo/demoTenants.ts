/**
 * The people and places of the demo data set (all fictitious): the domains with their addresses
 * and settings, the rooms with their residents and how each resident sleeps, and the staff who
 * are not demo accounts. The records themselves are assembled in demoRecords.ts.
 */
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SleeperProfile } from './sleepNight.ts';

type Data = Record<string, unknown>;

/** Analysis and alert settings of a care domain (PRODUCT.md section 5, "dates" and "numbers"). */
export const CARE_DATES = { sleepDayBoundaryHour: 12, nightStart: '21:00', nightEnd: '07:00', reportClosingDay: 31 };
export const CARE_NUMBERS = {
  respirationRateLow: 8,
  respirationRateHigh: 25,
  heartRateLow: 45,
  heartRateHigh: 110,
  outOfBedAlertMin: 10,
  noBreathingAlertSec: 20,
  temperatureHigh: 37.5,
  deviceOfflineMin: 5,
  alertResoundMin: 5,
  // 起きあがり alerts off, as by default: a facility turns them on for residents at risk of falling.
  sittingUpAlertSec: 0,
};

const D = DEMO_DOMAINS;
const care = { timeZone: 'Asia/Tokyo', dates: CARE_DATES, numbers: CARE_NUMBERS, status: 'active' };
const underCorporation = { parentDomainId: D.corporation, rootDomainId: D.corporation, agencyDomainId: D.agency };

/** In write order: a domain's root is written before the domains under it. */
export const DEMO_DOMAIN_RECORDS: readonly [string, Data][] = [
  [
    D.maker,
    {
      name: 'ねむりテック株式会社',
      nameKana: 'ネムリテック',
      kind: 'developer',
      rootDomainId: D.maker,
      address: { postalCode: '150-0002', prefecture: '東京都', city: '渋谷区', line: '渋谷3-12-8 ねむりビル5階' },
      phone: '03-6418-2201',
      location: { latitude: 35.6568, longitude: 139.7069 },
      timeZone: 'Asia/Tokyo',
      status: 'active',
    },
  ],
  [
    D.agency,
    {
      name: 'ねむりケア販売株式会社',
      nameKana: 'ネムリケアハンバイ',
      kind: 'agency',
      rootDomainId: D.agency,
      invoiceRegistrationNumber: 'T5120001234567',
      address: { postalCode: '530-0001', prefecture: '大阪府', city: '大阪市北区', line: '梅田1-2-3 梅田ケアビル7階' },
      phone: '06-6341-5502',
      location: { latitude: 34.7012, longitude: 135.4961 },
      timeZone: 'Asia/Tokyo',
      status: 'active',
    },
  ],
  [
    D.corporation,
    {
      name: '社会福祉法人さくら会',
      nameKana: 'シャカイフクシホウジンサクラカイ',
      kind: 'corporation',
      rootDomainId: D.corporation,
      agencyDomainId: D.agency,
      address: { postalCode: '330-0063', prefecture: '埼玉県', city: 'さいたま市浦和区', line: '高砂3-5-10' },
      phone: '048-822-3101',
      location: { latitude: 35.8584, longitude: 139.6489 },
      settings: { requireMfa: false },
      ...care,
    },
  ],
  [
    D.facilityA,
    {
      name: 'さくら苑',
      nameKana: 'サクラエン',
      kind: 'facility',
      ...underCorporation,
      address: { postalCode: '336-0926', prefecture: '埼玉県', city: 'さいたま市緑区', line: '東浦和5-8-2' },
      phone: '048-874-5501',
      location: { latitude: 35.8636, longitude: 139.7094 },
      settings: { requireMfa: false },
      ...care,
    },
  ],
  [
    D.facilityB,
    {
      name: 'もみじ荘',
      nameKana: 'モミジソウ',
      kind: 'facility',
      ...underCorporation,
      address: { postalCode: '334-0057', prefecture: '埼玉県', city: '川口市', line: '安行領根岸2-11-7' },
      phone: '048-296-7702',
      location: { latitude: 35.8392, longitude: 139.7606 },
      settings: { requireMfa: false },
      ...care,
    },
  ],
  [
    D.mfaFacility,
    {
      name: 'あおば苑',
      nameKana: 'アオバエン',
      kind: 'facility',
      ...underCorporation,
      address: { postalCode: '343-0845', prefecture: '埼玉県', city: '越谷市', line: '南越谷4-9-1' },
      phone: '048-985-6603',
      location: { latitude: 35.8768, longitude: 139.7903 },
      settings: { requireMfa: true },
      ...care,
    },
  ],
  [
    D.household,
    {
      name: '山田家',
      nameKana: 'ヤマダケ',
      kind: 'individual',
      rootDomainId: D.household,
      agencyDomainId: D.agency,
      address: { postalCode: '177-0041', prefecture: '東京都', city: '練馬区', line: '石神井町6-14-3' },
      phone: '03-3996-1204',
      location: { latitude: 35.7437, longitude: 139.6063 },
      settings: { requireMfa: false },
      ...care,
    },
  ],
];

/** The agency's partners: monthly price per device (yen, before tax) and months since the contract. */
export const DEMO_PARTNERS: readonly { domainId: string; name: string; monthlyUnitPrice: number; monthsAgo: number }[] = [
  { domainId: D.corporation, name: '社会福祉法人さくら会', monthlyUnitPrice: 2980, monthsAgo: 9 },
  { domainId: D.household, name: '山田家', monthlyUnitPrice: 3480, monthsAgo: 5 },
];

export type DeviceTypeId = 'nemuri-chest' | 'nemuri-bed' | 'nemuri-eit';

export interface DemoRoom {
  id: string;
  domainId: string;
  name: string;
  floor: string | null;
  unit: string | null;
  /** null: vacant. */
  residentName: string | null;
  residentNote: string | null;
  deviceTypeId: DeviceTypeId;
  /** Overrides of the resident's randomly drawn sleep profile. */
  sleeper?: Partial<SleeperProfile>;
}

const A = D.facilityA;
const B = D.facilityB;
const H = D.household;
const room = (
  id: string,
  domainId: string,
  name: string,
  floor: string | null,
  unit: string | null,
  deviceTypeId: DeviceTypeId,
  residentName: string | null,
  residentNote: string | null,
  sleeper?: Partial<SleeperProfile>,
): DemoRoom => ({
  id,
  domainId,
  name,
  floor,
  unit,
  residentName,
  residentNote,
  deviceTypeId,
  ...(sleeper === undefined ? {} : { sleeper }),
});

/** 24 rooms in device order: room i carries NM-00(i+1). */
export const DEMO_ROOMS: readonly DemoRoom[] = [
  room('demo-a-101', A, '101号室', '1F', '東ユニット', 'nemuri-bed', '佐々木 トシ', '夜間トイレ介助あり（2回程度）'),
  room('demo-a-102', A, '102号室', '1F', '東ユニット', 'nemuri-bed', '石川 正男', '睡眠時無呼吸の疑い（中等度）。いびき大。主治医に報告済み', {
    apneaIndex: 22,
    respirationRate: 17,
    heartRate: 68,
    awakenings: 5,
  }),
  room('demo-a-103', A, '103号室', '1F', '東ユニット', 'nemuri-bed', '前田 ハル', '車椅子。移乗介助が必要'),
  room('demo-a-104', A, '104号室', '1F', '東ユニット', 'nemuri-bed', '藤井 清', '高血圧（服薬中）'),
  room('demo-a-105', A, '105号室', '1F', '西ユニット', 'nemuri-bed', '岡田 フミ', '認知症（中等度）。夜間の離床・徘徊に注意', {
    longTrip: 0.35,
    toiletTrips: 1.8,
    restlessness: 1.3,
  }),
  room('demo-a-106', A, '106号室', '1F', '西ユニット', 'nemuri-bed', '長谷川 勇', '糖尿病（インスリン）。夜間低血糖に注意'),
  room('demo-a-107', A, '107号室', '1F', '西ユニット', 'nemuri-bed', '村上 キミ', '入眠に時間がかかる。眠剤は頓用', {
    latency: 45,
    awakenings: 4.5,
    restlessness: 1.2,
  }),
  room('demo-a-108', A, '108号室', '1F', '西ユニット', 'nemuri-bed', '近藤 茂', '心不全の既往。呼吸数の変化に注意', { respirationRate: 19, heartRate: 74 }),
  room('demo-a-201', A, '201号室', '2F', '東ユニット', 'nemuri-chest', '坂本 チヨ', '難聴。声かけは正面から'),
  room('demo-a-202', A, '202号室', '2F', '東ユニット', 'nemuri-chest', '遠藤 昭', '早寝早起き。5時台に起床', { bedTime: 20 * 60 + 40, wakeTime: 5 * 60 + 10 }),
  room('demo-a-203', A, '203号室', '2F', '東ユニット', 'nemuri-chest', '青木 ヨシ', '骨粗しょう症。転倒リスク高'),
  room('demo-a-204', A, '204号室', '2F', '東ユニット', 'nemuri-chest', '西村 実', 'ペースメーカー装着'),
  room('demo-a-205', A, '205号室', '2F', '西ユニット', 'nemuri-chest', '福田 スミ', '夜間頻尿（3〜4回）', { toiletTrips: 3.2 }),
  room('demo-a-206', A, '206号室', '2F', '西ユニット', 'nemuri-chest', '太田 博', 'パーキンソン病。寝返り介助あり', { restlessness: 1.4 }),
  room('demo-a-207', A, '207号室', '2F', '西ユニット', 'nemuri-chest', null, '空室（清掃済み）'),
  room('demo-a-208', A, '208号室', '2F', '西ユニット', 'nemuri-chest', '松尾 タケ', '日中の傾眠あり。夜はよく眠る', { awakenings: 2.5, latency: 12 }),
  room('demo-b-01', B, '松の間', '1F', null, 'nemuri-chest', '原田 ミツ', '夜間トイレ介助あり'),
  room('demo-b-02', B, '竹の間', '1F', null, 'nemuri-chest', '中島 武', '慢性閉塞性肺疾患（COPD）。在宅酸素', { respirationRate: 20, heartRate: 78 }),
  room('demo-b-03', B, '梅の間', '1F', null, 'nemuri-chest', '小野 シズ', '不眠の訴えが多い', { latency: 35, awakenings: 5 }),
  room('demo-b-04', B, '菊の間', '1F', null, 'nemuri-chest', '今井 久雄', '特記事項なし'),
  room('demo-b-05', B, '萩の間', '1F', null, 'nemuri-eit', '竹内 ヤエ', '呼吸機能の研究に協力（EIT ベルト装着、家族同意済み）'),
  room('demo-b-06', B, '桐の間', '1F', null, 'nemuri-chest', null, '空室（入居予定あり）'),
  room('demo-h-1', H, '母の部屋', null, null, 'nemuri-chest', '山田 キヨ', '88歳。夜中に一度トイレに起きる', { toiletTrips: 1.2 }),
  room('demo-h-2', H, '寝室', null, null, 'nemuri-chest', '山田 花子', '本人', {
    bedTime: 21 * 60 + 50,
    wakeTime: 6 * 60 + 20,
    toiletTrips: 0.3,
    heartRate: 62,
  }),
];

export interface DemoStaff {
  uid: string;
  domainId: string;
  displayName: string;
  accessLevel: number;
  disabled?: boolean;
}

const L = ROLE_LEVELS;
const staffOf = (prefix: string, domainId: string, people: readonly [string, number, boolean?][]): DemoStaff[] =>
  people.map(([displayName, accessLevel, disabled], index) => ({
    uid: `demo-staff-${prefix}-${String(index + 1).padStart(2, '0')}`,
    domainId,
    displayName,
    accessLevel,
    ...(disabled === true ? { disabled } : {}),
  }));

/** Staff without a demo account (they cannot sign in): the staff lists are not just the testers. */
export const DEMO_EXTRA_STAFF: readonly DemoStaff[] = [
  ...staffOf('a', A, [
    ['木村 さくら', L.generalStaff],
    ['林 健太', L.generalStaff],
    ['清水 美咲', L.generalStaff],
    ['山崎 大輔', L.generalStaff],
    ['森 由美', L.administrator],
    ['池田 翔', L.generalStaff, true],
  ]),
  ...staffOf('b', B, [
    ['橋本 恵', L.generalStaff],
    ['阿部 直樹', L.generalStaff],
    ['石井 麻衣', L.generalStaff],
    ['山下 拓也', L.generalStaff],
    ['小川 真由美', L.administrator],
    ['後藤 亮', L.generalStaff],
  ]),
];
