// Word lists for synthetic names. Names are combinations of common English words, so any
// resemblance to a real company or building is coincidental; websites use the reserved
// `.example` domain so none can point at a real site.

export const PLACE_WORDS = [
  "Granite Peak", "Lakeshore", "Cedar Ridge", "Silver Creek", "Northgate", "Harbor Point", "Blue Mesa", "Stone Bridge",
  "Willow Bend", "Eagle Crest", "Pine Hollow", "Riverbend", "Oak Meadow", "Sunset Ridge", "Maple Grove", "Crystal Lake",
  "Highland Park", "Copper Canyon", "Bayview", "Fox Run", "Iron Hill", "Prairie Wind", "Red Rock", "Clearwater",
  "Falcon Ridge", "Golden Gate", "Heritage Hills", "Juniper", "Kings Crossing", "Lone Star", "Magnolia", "North Star",
  "Old Mill", "Palisades", "Quail Run", "Rolling Hills", "Sandstone", "Timberline", "Union Square", "Vista Verde",
  "West End", "Aspen Grove", "Brookside", "Canyon Creek", "Deer Park", "Elm Street", "Fairview", "Glenwood",
  "Hawthorne", "Indian Springs", "Jasper", "Kensington", "Lakewood", "Mill Creek", "Northfield", "Orchard Park",
  "Parkside", "Ridgeview", "Stonegate", "Tallgrass", "University Park", "Valley Forge", "Westbrook", "Windmill",
  "Bluebonnet", "Cypress Point", "Desert Sky", "Evergreen", "Foxhall", "Grand Prairie", "Hidden Valley", "Ivy Hill",
];

export const NOUN_WORDS = [
  "Summit", "Keystone", "Meridian", "Beacon", "Cornerstone", "Pinnacle", "Sterling", "Anchor", "Ironwood", "Redwood",
  "Atlas", "Trident", "Vanguard", "Landmark", "Bedrock", "Crestline", "Horizon", "Paragon", "Sentinel", "Compass",
  "Lighthouse", "Monument", "Capstone", "Bridgewater", "Northbridge", "Harborview", "Stonehaven", "Ridgeline", "Westfield",
  "Eastgate", "Southport", "Fairway", "Crossroads", "Milestone", "Frontier", "Heritage", "Liberty", "Patriot", "Pioneer",
  "Sequoia", "Tidewater", "Whitestone", "Blackrock", "Greystone", "Silverline", "Goldfinch", "Kestrel", "Osprey", "Peregrine",
  "Cardinal", "Mariner", "Archway", "Benchmark", "Cobalt", "Evermore", "Fieldstone", "Gateway", "Hallmark", "Ironclad",
];

export const STREET_WORDS = [
  "Oak", "Maple", "Cedar", "Pine", "Elm", "Main", "Washington", "Lake", "Hill", "Park", "Walnut", "Spring", "North",
  "Ridge", "Church", "Willow", "Mill", "Sunset", "Railroad", "Jackson", "Franklin", "Lincoln", "Jefferson", "Madison",
  "Highland", "Meadow", "Forest", "River", "Commerce", "Industrial", "Market", "Center", "Broad", "Union", "Grand",
  "College", "Valley", "Airport", "Harbor", "Cherry", "Chestnut", "Hickory", "Dogwood", "Magnolia", "Poplar", "Sycamore",
  "Birch", "Aspen", "Laurel", "Juniper", "Vine", "Front", "Water", "Bridge", "Canal", "Mission", "Prospect", "Pleasant",
  "Liberty", "Independence", "Summit", "Fairview", "Lakeview", "Woodland", "Green", "Orchard", "Heritage", "Pioneer",
  "Technology", "Innovation", "Corporate", "Enterprise", "Gateway", "Parkway", "Crossroads", "Logistics", "Distribution",
];

export const STREET_SUFFIXES: [string, number][] = [
  ["St", 30], ["Ave", 20], ["Rd", 14], ["Dr", 12], ["Blvd", 7], ["Ln", 5], ["Way", 5], ["Pkwy", 3], ["Ct", 2], ["Pl", 2],
];

export const FIRST_NAMES = [
  "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Barbara",
  "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Christopher", "Lisa", "Daniel", "Nancy",
  "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret", "Donald", "Ashley", "Steven", "Kimberly", "Andrew", "Emily",
  "Paul", "Donna", "Joshua", "Michelle", "Kenneth", "Carol", "Kevin", "Amanda", "Brian", "Melissa", "George", "Deborah",
  "Timothy", "Stephanie", "Ronald", "Rebecca", "Jason", "Sharon", "Edward", "Laura", "Jeffrey", "Cynthia", "Ryan", "Amy",
  "Jacob", "Kathleen", "Gary", "Angela", "Nicholas", "Shirley", "Eric", "Brenda", "Jonathan", "Emma", "Stephen", "Anna",
  "Larry", "Pamela", "Justin", "Nicole", "Scott", "Samantha", "Brandon", "Katherine", "Benjamin", "Christine", "Samuel", "Helen",
  "Maria", "Jose", "Luis", "Carmen", "Wei", "Mei", "Raj", "Priya", "Hiroshi", "Yuki", "Ahmed", "Fatima", "Olga", "Ivan",
];

export const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Hernandez",
  "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson",
  "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
  "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell",
  "Mitchell", "Carter", "Roberts", "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins",
  "Reyes", "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper", "Peterson",
  "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson", "Watson", "Brooks", "Chavez", "Wood",
  "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price", "Alvarez", "Castillo", "Sanders", "Patel", "Myers",
  "Long", "Ross", "Foster", "Jimenez", "Chen", "Wang", "Shah", "Kowalski", "Novak", "O'Brien", "Sullivan", "Fitzgerald",
];

export const ROMAN = ["II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"];
