import { PRODUCT_NAME } from './product'
import type { SponsorColours, SponsorTheme } from './types'

export { PRODUCT_LOGO, PRODUCT_NAME } from './product'

/** The theme used when SPONSOR_THEME is not set or names no theme. */
export const DEFAULT_SPONSOR_KEY = 'default'

// Font stacks. Each starts with a family the product ships itself (app/sponsors/shipped-fonts.mjs, served from
// /fonts/), so a theme's typography is the same on every operating system; the rest is the fallback while it loads.
const SYSTEM_SANS = '"Public Sans Variable", system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif'
const NEO_GROTESQUE = '"Inter Variable", Inter, Roboto, "Helvetica Neue", "Arial Nova", "Nimbus Sans", "Liberation Sans", Arial, sans-serif'
const HUMANIST = '"Source Sans 3 Variable", Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", sans-serif'
const GEOMETRIC = '"Jost Variable", Avenir, "Avenir Next LT Pro", Montserrat, Corbel, "URW Gothic", sans-serif'
const TRANSITIONAL = '"Source Serif 4 Variable", Charter, "Bitstream Charter", "Sitka Text", Cambria, "DejaVu Serif", Georgia, serif'
const OLD_STYLE = '"EB Garamond Variable", "Iowan Old Style", "Palatino Linotype", "URW Palladio L", P052, Georgia, serif'
const SLAB = '"Roboto Slab Variable", Rockwell, "Rockwell Nova", "DejaVu Serif", "Sitka Small", serif'
const ROUNDED = '"Nunito Variable", ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, "Arial Rounded MT", Calibri, sans-serif'
const INDUSTRIAL = '"Oswald Variable", Bahnschrift, "DIN Alternate", "Franklin Gothic Medium", "Nimbus Sans Narrow", sans-serif-condensed, sans-serif'

// Shared starting points; every theme names its own brand and page colours on top.
const LIGHT: SponsorColours = {
  brand: '#1f5fbf',
  brandContrast: '#ffffff',
  background: '#f5f7fa',
  surface: '#ffffff',
  text: '#1b2430',
  muted: '#5b6675',
  border: '#c9d1dc',
  danger: '#b42318',
  success: '#17702f',
  focus: '#b35c00',
}
const DARK: SponsorColours = {
  brand: '#ffc857',
  brandContrast: '#1a1200',
  background: '#11161d',
  surface: '#1b222c',
  text: '#e9eef4',
  muted: '#a9b4c2',
  border: '#3b4654',
  danger: '#ff8a80',
  success: '#7ee2a0',
  focus: '#7cc4ff',
}

/**
 * The 27 sponsor themes, chosen at start-up by SPONSOR_THEME. A sponsor adds a theme by adding an entry here and its
 * logo under public/sponsors/; app/styles/sponsors.css.ts makes the theme class from this data.
 */
export const SPONSOR_THEMES: readonly SponsorTheme[] = [
  {
    key: 'default',
    name: PRODUCT_NAME,
    head: { title: PRODUCT_NAME, metaDescription: 'Ask the knowledge base and read answers with their sources.' },
    header: { logo: '/sponsors/default.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: SYSTEM_SANS },
    colours: LIGHT,
  },
  {
    key: 'civic-services',
    name: 'Civic Services Office',
    head: { title: 'Civic Services Help Desk', metaDescription: 'Answers about permits, certificates and council services, with the pages they come from.' },
    header: { logo: '/sponsors/civic-services.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: TRANSITIONAL },
    colours: { ...LIGHT, brand: '#0b5394', background: '#f4f6f9' },
  },
  {
    key: 'city-council',
    name: 'City Council',
    head: { title: 'City Council Answers', metaDescription: 'Find council decisions, meeting schedules and local services in plain language.' },
    header: { logo: '/sponsors/city-council.svg' },
    showProductLogo: true,
    font: { body: NEO_GROTESQUE, heading: NEO_GROTESQUE },
    colours: { ...LIGHT, brand: '#7a1f3d', background: '#faf6f7', border: '#d8c8ce' },
  },
  {
    key: 'county-records',
    name: 'County Records Bureau',
    head: { title: 'County Records Answers', metaDescription: 'How to request deeds, licences and other county records, answered from our guides.' },
    header: { logo: '/sponsors/county-records.svg' },
    showProductLogo: true,
    font: { body: TRANSITIONAL, heading: TRANSITIONAL },
    colours: { ...LIGHT, brand: '#4a4a6a', background: '#f6f6f8', text: '#20202c', muted: '#585868', border: '#cacad6' },
    radius: { control: '2px', card: '4px' },
  },
  {
    key: 'public-library',
    name: 'Public Library Network',
    head: { title: 'Library Answers', metaDescription: 'Questions about borrowing, events and digital collections, answered from library guides.' },
    header: { logo: '/sponsors/public-library.svg' },
    showProductLogo: true,
    font: { body: HUMANIST, heading: TRANSITIONAL },
    colours: { ...LIGHT, brand: '#6b3fa0', background: '#f8f5fb', border: '#d6cbe3', focus: '#a3580a' },
  },
  {
    key: 'branch-library',
    name: 'Branch Libraries Cooperative',
    head: { title: 'Library Answers', metaDescription: 'Opening hours, study rooms and local history from your branch library, with sources.' },
    header: { logo: '/sponsors/branch-library.svg' },
    showProductLogo: true,
    font: { body: HUMANIST, heading: HUMANIST },
    colours: { ...LIGHT, brand: '#1d6b5a', background: '#f3f8f6', border: '#c3d8d1' },
  },
  {
    key: 'university',
    name: 'University Learning Services',
    head: { title: 'Campus Knowledge Base', metaDescription: 'Enrolment, timetables, library and IT help for students and staff, with sources.' },
    header: { logo: '/sponsors/university.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: OLD_STYLE },
    colours: { ...LIGHT, brand: '#00467f', background: '#f3f7fb' },
  },
  {
    key: 'community-college',
    name: 'Community College',
    head: { title: 'Student Help Centre', metaDescription: 'Course, fee and campus questions for students, answered from college guides.' },
    header: { logo: '/sponsors/community-college.svg' },
    showProductLogo: true,
    font: { body: GEOMETRIC, heading: GEOMETRIC },
    colours: { ...LIGHT, brand: '#a13d00', background: '#fbf7f4', border: '#e0cfc3', focus: '#5b2dbf', danger: '#a3165a' },
    radius: { control: '999px', card: '14px' },
  },
  {
    key: 'school-district',
    name: 'School District Family Services',
    head: { title: 'Family and School Help', metaDescription: 'Enrolment, transport and calendar answers for families, from district guides.' },
    header: { logo: '/sponsors/school-district.svg' },
    showProductLogo: true,
    font: { body: ROUNDED, heading: ROUNDED },
    colours: { ...LIGHT, brand: '#2e6b1f', background: '#f5f9f2', border: '#cbdcc3' },
    radius: { control: '10px', card: '16px' },
  },
  {
    key: 'health-clinic',
    name: 'Community Health Clinic',
    head: { title: 'Health Information Desk', metaDescription: 'Appointments, services and patient guidance from the clinic, with sources.' },
    header: { logo: '/sponsors/health-clinic.svg' },
    showProductLogo: true,
    font: { body: HUMANIST, heading: HUMANIST },
    colours: { ...LIGHT, brand: '#00696b', background: '#f2f8f8', border: '#c2dada' },
  },
  {
    key: 'public-health',
    name: 'Public Health Agency',
    head: { title: 'Health Information Desk', metaDescription: 'Vaccination, prevention and public health guidance, answered from official pages.' },
    header: { logo: '/sponsors/public-health.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: SYSTEM_SANS },
    colours: { ...LIGHT, brand: '#005a9c', background: '#f3f7fb' },
  },
  {
    key: 'general-hospital',
    name: 'General Hospital',
    head: { title: 'Patient and Visitor Guide', metaDescription: 'Visiting hours, departments and patient information, with the pages they come from.' },
    header: { logo: '/sponsors/general-hospital.svg' },
    showProductLogo: true,
    font: { body: NEO_GROTESQUE, heading: NEO_GROTESQUE },
    colours: { ...LIGHT, brand: '#0f5c8a', background: '#f4f8fb' },
  },
  {
    key: 'metro-transit',
    name: 'Metro Transit',
    head: { title: 'Rider Help', metaDescription: 'Fares, routes, accessibility and lost property, answered from rider guides.' },
    header: { logo: '/sponsors/metro-transit.svg' },
    showProductLogo: true,
    font: { body: INDUSTRIAL, heading: INDUSTRIAL },
    colours: { ...LIGHT, brand: '#a50021', background: '#f7f7f7', border: '#d0d0d0', muted: '#575757', focus: '#0050a0', danger: '#a3165a' },
    radius: { control: '3px', card: '6px' },
  },
  {
    key: 'regional-rail',
    name: 'Regional Rail',
    head: { title: 'Travel Information', metaDescription: 'Timetables, tickets and travel changes on regional rail, answered from our notices.' },
    header: { logo: '/sponsors/regional-rail.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: INDUSTRIAL },
    colours: DARK,
  },
  {
    key: 'harbour-authority',
    name: 'Harbour Authority',
    head: { title: 'Harbour Information', metaDescription: 'Berths, moorings, notices to mariners and harbour services, with sources.' },
    header: { logo: '/sponsors/harbour-authority.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: SLAB },
    colours: { ...LIGHT, brand: '#143d6b', background: '#f2f5f9', focus: '#a3580a' },
  },
  {
    key: 'parks-recreation',
    name: 'Parks and Recreation',
    head: { title: 'Parks and Recreation Help', metaDescription: 'Trails, bookings, programmes and park rules, answered from our guides.' },
    header: { logo: '/sponsors/parks-recreation.svg' },
    showProductLogo: true,
    font: { body: HUMANIST, heading: SLAB },
    colours: { ...LIGHT, brand: '#2f6f3e', background: '#f4f8f3', border: '#c7d9c8' },
  },
  {
    key: 'water-utility',
    name: 'Water Utility',
    head: { title: 'Water Service Help', metaDescription: 'Bills, water quality, outages and connections, answered from the utility’s pages.' },
    header: { logo: '/sponsors/water-utility.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: GEOMETRIC },
    colours: { ...LIGHT, brand: '#0a5f8f', background: '#f1f7fb' },
  },
  {
    key: 'energy-cooperative',
    name: 'Energy Cooperative',
    head: { title: 'Member Energy Help', metaDescription: 'Meters, tariffs, outages and efficiency advice for members, with sources.' },
    header: { logo: '/sponsors/energy-cooperative.svg' },
    showProductLogo: true,
    font: { body: GEOMETRIC, heading: GEOMETRIC },
    colours: { ...LIGHT, brand: '#8a5a00', background: '#fbf8f1', border: '#e2d6bd', focus: '#2f5fd0' },
  },
  {
    key: 'housing-agency',
    name: 'Housing Agency',
    head: { title: 'Housing Help', metaDescription: 'Applications, repairs and tenancy questions, answered from the agency’s guides.' },
    header: { logo: '/sponsors/housing-agency.svg' },
    showProductLogo: true,
    font: { body: HUMANIST, heading: HUMANIST },
    colours: { ...LIGHT, brand: '#5b3f8c', background: '#f7f5fa', border: '#d4cce2' },
  },
  {
    key: 'natural-history-museum',
    name: 'Natural History Museum',
    head: { title: 'Museum Guide', metaDescription: 'Exhibitions, collections and visiting information, answered from the museum’s pages.' },
    header: { logo: '/sponsors/natural-history-museum.svg' },
    showProductLogo: true,
    font: { body: TRANSITIONAL, heading: OLD_STYLE },
    colours: {
      brand: '#e3b56b',
      brandContrast: '#1c140a',
      background: '#15110e',
      surface: '#211b16',
      text: '#f3ece4',
      muted: '#bfb2a3',
      border: '#4a3f35',
      danger: '#ff9a8a',
      success: '#9ad99a',
      focus: '#8fd3ff',
    },
  },
  {
    key: 'state-archives',
    name: 'State Archives',
    head: { title: 'Archives Reference Desk', metaDescription: 'Finding aids, reading room rules and copy requests, answered from archive guides.' },
    header: { logo: '/sponsors/state-archives.svg' },
    showProductLogo: true,
    font: { body: OLD_STYLE, heading: OLD_STYLE },
    colours: { ...LIGHT, brand: '#5c4033', background: '#f8f5f0', text: '#2a211b', muted: '#625448', border: '#d9cfc2' },
    radius: { control: '2px', card: '4px' },
  },
  {
    key: 'employment-services',
    name: 'Employment Services',
    head: { title: 'Job Seeker Help', metaDescription: 'Job search, training and benefit questions, answered from employment guides.' },
    header: { logo: '/sponsors/employment-services.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: SYSTEM_SANS },
    colours: { ...LIGHT, brand: '#005f73', background: '#f2f7f8' },
  },
  {
    key: 'revenue-office',
    name: 'Revenue Office',
    head: { title: 'Tax and Payments Help', metaDescription: 'Returns, deadlines and payment questions, answered from the revenue office’s guides.' },
    header: { logo: '/sponsors/revenue-office.svg' },
    showProductLogo: true,
    font: { body: NEO_GROTESQUE, heading: TRANSITIONAL },
    colours: { ...LIGHT, brand: '#2b4162', background: '#f4f6f8' },
  },
  {
    key: 'emergency-management',
    name: 'Emergency Management Office',
    head: { title: 'Preparedness Guide', metaDescription: 'Warnings, evacuation and preparedness advice, answered from official guidance.' },
    header: { logo: '/sponsors/emergency-management.svg' },
    showProductLogo: true,
    font: { body: SYSTEM_SANS, heading: INDUSTRIAL },
    // High contrast on purpose: people read this under stress and on poor screens.
    colours: {
      brand: '#8b0000',
      brandContrast: '#ffffff',
      background: '#ffffff',
      surface: '#ffffff',
      text: '#000000',
      muted: '#3d3d3d',
      border: '#595959',
      // Destructive actions never share the brand's red: a crimson-magenta reads as another colour beside it.
      danger: '#a3165a',
      success: '#0b5d1e',
      focus: '#0047ab',
    },
  },
  {
    key: 'agricultural-extension',
    name: 'Agricultural Extension Service',
    head: { title: 'Farm and Garden Answers', metaDescription: 'Crops, soil, pests and grants for growers, answered from extension guides.' },
    header: { logo: '/sponsors/agricultural-extension.svg' },
    showProductLogo: true,
    font: { body: HUMANIST, heading: SLAB },
    colours: { ...LIGHT, brand: '#4d6b00', background: '#f7f9f1', border: '#d3dcbf', focus: '#8f4a00' },
  },
  {
    key: 'visitor-bureau',
    name: 'Visitor Bureau',
    head: { title: 'Visitor Questions', metaDescription: 'Things to do, getting around and where to stay, answered from visitor guides.' },
    header: { logo: '/sponsors/visitor-bureau.svg' },
    showProductLogo: true,
    font: { body: GEOMETRIC, heading: GEOMETRIC },
    colours: { ...LIGHT, brand: '#8e2c6b', background: '#fbf5f8', border: '#e3cbd8', focus: '#0050a0' },
    radius: { control: '999px', card: '14px' },
  },
  {
    // A fully white-label installation: neither the sponsor's nor the product's mark, only the neutral default logo.
    key: 'white-label',
    name: 'Help Centre',
    head: { title: 'Help Centre', metaDescription: 'Ask a question and read an answer with the articles it comes from.' },
    header: { logo: '/sponsors/default.svg' },
    showProductLogo: false,
    font: { body: SYSTEM_SANS, heading: SYSTEM_SANS },
    colours: { ...LIGHT, brand: '#3b4a5a', background: '#f5f6f7', border: '#cdd2d8' },
  },
]

const byKey = new Map(SPONSOR_THEMES.map((theme) => [theme.key, theme]))

/** The theme of a SPONSOR_THEME value; an unknown or empty key gives the default theme. */
export function resolveSponsorTheme(key: string | null | undefined): SponsorTheme {
  return byKey.get((key ?? '').trim().toLowerCase()) ?? (byKey.get(DEFAULT_SPONSOR_KEY) as SponsorTheme)
}

/** Whether a SPONSOR_THEME value names a theme. */
export function isSponsorKey(key: string | null | undefined): boolean {
  return byKey.has((key ?? '').trim().toLowerCase())
}
