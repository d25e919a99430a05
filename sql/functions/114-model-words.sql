-- noqa: disable=all
-- The words an embedding model knows (pymem_private.model_words, read by pymem_private.unreadable_passage):
-- the 21722 whole words of the WordPiece vocabulary of sentence-transformers/all-MiniLM-L6-v2
-- (letters only, two or more; no '##' pieces). Written by `python -m pymem_dev.evaluation.model_words` from the
-- bundled vocab.txt, not by hand. A migrate that changes nothing here changes no row; another model's words are
-- kept.
with shipped (word) as (
    select w
    from pg_catalog.regexp_split_to_table($words$
aa aaa aachen aarhus aaron ab aba aback abandon abandoned abandoning abandonment abbas abbess abbey abbot
abbott abbreviated abbreviation abby abc abd abdomen abdominal abducted abduction abdul abdullah abe abel
aberdeen abigail abilities ability able abnormal abnormalities aboard abolished abolition abolitionist
aboriginal abortion about above abraham abrams abroad abrupt abruptly abs absence absent absently absolute
absolutely absorb absorbed absorbing absorption abstract abstraction abstracts absurd abu abundance abundant
abuse abused abuses abusive abyss ac acacia academia academic academics academie academies academy acc
accelerate accelerated accelerating acceleration accelerator accent accents accept acceptable acceptance
accepted accepting accepts access accessed accessibility accessible accession accessories accessory accident
accidental accidentally accidents acclaim acclaimed accolades accommodate accommodated accommodation
accommodations accompanied accompaniment accompany accompanying accomplish accomplished accomplishment
accomplishments accord accordance according accordingly accordion account accountability accountable
accountant accountants accounted accounting accounts accreditation accredited accumulate accumulated
accumulation accuracy accurate accurately accusation accusations accuse accused accusing accustomed ace aces
ache ached acheron achieve achieved achievement achievements achieving achilles aching acid acidic acids
acknowledge acknowledged acknowledges acknowledging acoustic acquaintance acquaintances acquainted acquire
acquired acquiring acquisition acquisitions acquitted acre acres acronym across act acted acting action
actions activate activated activation active actively activism activist activists activities activity acton
actor actors actress actresses acts actual actually acute ad ada adam adamant adams adapt adaptation
adaptations adapted adapting adaptive add added addict addicted addiction adding addison addition additional
additionally additions additive address addressed addresses addressing adds adelaide adele aden adept adequate
adequately adhere adherence adherents adi adjacent adjective adjoining adjunct adjust adjustable adjusted
adjusting adjustment adjustments adjutant adler administer administered administering administration
administrations administrative administratively administrator administrators admiral admiralty admiration
admire admired admiring admission admissions admit admits admitted admitting adobe adolescence adolescent
adolescents adolf adolph adopt adopted adopting adoption adoptive adorable adored adorned adrenaline adrian
adriatic ads adult adultery adulthood adults advance advanced advancement advances advancing advantage
advantages advent adventist adventure adventurer adventures adventurous adversary adverse advertised
advertisement advertisements advertising advice advise advised adviser advisers advises advising advisor
advisors advisory advocacy advocate advocated advocates advocating ae aegean aerial aero aerodrome aerodynamic
aeronautical aeronautics aerospace aesthetic aesthetics af afar afb afc affair affairs affect affected
affecting affection affectionately affects affiliate affiliated affiliates affiliation affinity affirmative
affirmed affluent afford affordable afforded afghan afghanistan afi afl aforementioned afraid africa african
africans afrikaans afro aft after afterlife aftermath afternoon afternoons afterward afterwards ag again
against agatha age aged agencies agency agenda agent agents ages aggravated aggregate aggregation aggregator
aggression aggressive aggressively agile aging agitated agitation agnes ago agony agra agrarian agree agreed
agreeing agreement agreements agrees agricultural agriculture aground agustin ah ahead ahl ahmad ahmed
ahmedabad ai aid aidan aide aided aiden aiding aids aim aimed aimee aiming aims ain air airborne airbus
aircraft aired aires airfield airfields airing airlift airline airlines airmen airplane airplanes airplay
airport airports airs airship airspace airways aisle aisles aix aj ajax ak aka akbar akin akira akron al ala
alabama alain alam alan alarm alarmed alarms alaska alba albania albanian albanians albans albany albeit
albert alberta alberto albion albrecht album albums albuquerque alcohol alcoholic alcoholism alderman aldo ale
alec alejandro aleksandr aleppo alert alerted alessandro alex alexa alexander alexandra alexandre alexandria
alexei alexia alexis alf alfa alfonso alfred alfredo algae algebra algebraic algeria algerian algiers
algorithm algorithms ali alias alice alicia alien aliens align aligned alignment alike alison alistair alive
all alla allah allan allegations alleged allegedly allegheny allegiance alleging allegro allen allergic
alleviate alley alliance alliances allie allied allies alligator allison allmusic allocated allocation
allotted allow allowance allowed allowing allows alloy alloys ally alma almeida almighty almond almost alone
along alongside alonso aloud alpha alphabet alpine alps already alright als alsace also alt alta altar alter
alteration alterations altered altering alternate alternately alternating alternative alternatively
alternatives although altitude altitudes alto altogether alton aluminium aluminum alumni alumnus alvarez
alvaro alvin always alyssa alzheimer am ama amadeus amalgamated amalgamation amanda amar amara amassed amateur
amateurs amazed amazement amazing amazingly amazon ambassador ambassadors amber ambient ambiguity ambiguous
ambition ambitions ambitious ambrose ambulance ambush ambushed amc amelia amelie amend amended amendment
amendments amenities america american americana americans americas ames amherst ami amid amidst amiga amin
amino amir amman ammonia ammunition amnesia amnesty among amongst amor amore amos amount amounted amounts
amour amp amphibious ample amplified amplifier amplifiers amplitude amsterdam amtrak amulet amused amusement
amusing amy an ana anaheim anal analog analogous analogue analogy analyses analysis analyst analysts analytic
analytical analytics analyze analyzed analyzing anand anarchist anarchy anastasia anatolia anatomical anatomy
ancestor ancestors ancestral ancestry anchor anchorage anchored anchors ancient and anders andersen anderson
andersson andes andhra andover andre andrea andreas andrei andres andrew andrews andrey android andy ang angel
angela angeles angelica angelina angelo angels anger angered angie angle angled angles anglia anglican anglo
angola angrily angry anguish angular angus anhalt animal animals animated animation animator anime anita
ankara ankle ankles ann anna annabelle annals annapolis anne annette annex annexation annexed annie
anniversary announce announced announcement announcements announcer announces announcing annoyance annoyed
annoying annual annually annum anomaly anonymous another anson answer answered answering answers ant
antagonist antarctic antarctica antenna antennae antennas anterior anthem anthologies anthology anthony
anthropological anthropologist anthropology anti antibiotics antibodies antibody anticipated anticipating
anticipation antics antigen antigua antilles antioch antique antiques antiquities antiquity antoine antoinette
anton antonia antonio antony antrim ants antwerp anwar anxiety anxious anxiously any anya anybody anymore
anyone anything anytime anyway anywhere anzac ao ap apache apart apartheid apartment apartments ape aperture
apes apex api apical apocalypse apocalyptic apollo apologetic apologies apologize apologized apology apostle
apostles apostolic app appalachian appalled apparatus apparel apparent apparently appeal appealed appealing
appeals appear appearance appearances appeared appearing appears appellate appendix appetite applause apple
apples appleton appliances applicable applicant applicants application applications applied applies apply
applying appoint appointed appointing appointment appointments appreciate appreciated appreciation
apprehension apprentice apprenticeship approach approached approaches approaching appropriate appropriated
appropriately appropriations approval approve approved approx approximate approximately approximation apps apr
april apron apt aqua aquarium aquatic aquatics aqueduct aquino aquitaine ar ara arab arabia arabian arabic
arabs aragon aramaic arbitrary arbitration arbor arboretum arc arcade arcadia arch archaeological
archaeologist archaeologists archaeology archaic archangel archbishop archdeacon archdiocese archduke arched
archeological archer archers archery arches archibald archie arching archipelago architect architects
architectural architecture archival archive archived archives archway arcs arctic arden ardent are area areas
aren arena arenas ares argent argentina argentine arguably argue argued argues arguing argument arguments
argus argyle argyll ari aria arias arid ariel arise arises arising aristocracy aristocratic aristotle
arithmetic arizona arjun ark arkansas arlington arm armada armagh armament armand armando armchair armed
armenia armenian armenians armies armistice armor armored armory armour armoured arms armstrong army arnold
aroma aromatic arose around arousal aroused arrange arranged arrangement arrangements arranger arranging array
arrays arrest arrested arresting arrests arrival arrivals arrive arrived arrives arriving arrogance arrogant
arrondissement arrow arrows arroyo ars arsenal arsenic arson art arte artefacts artemis arterial arteries
artery arthritis arthur article articles articulated artifact artifacts artificial artillery artisans artist
artistic artists arts arturo artwork artworks arun arya aryan as asa asahi asbestos ascended ascending
ascension ascent ascot ascribed asean ash asha ashamed ashby ashe asher ashes ashford ashland ashley ashok
ashore ashton asia asian asiatic aside ask asked asking asks asleep aspect aspects aspen asphalt aspirations
aspiring ass assam assassin assassinate assassinated assassination assassins assault assaulted assaults
assemble assembled assemblies assembly assent assert asserted asserting assertion asserts assess assessed
assessing assessment assessments asset assets asshole assign assigned assignment assignments assigns
assimilation assist assistance assistant assistants assisted assisting assists associate associated associates
association associations assortment assume assumed assumes assuming assumption assumptions assurance assure
assured assyrian asteroid asteroids asthma aston astonished astonishing astonishment astor astoria astrid
astro astronaut astronauts astronomer astronomers astronomical astronomy astros asturias asylum at ata atari
ate atheist athena athenian athens athlete athletes athletic athletics atkins atkinson atlanta atlantic
atlantis atlas atletico atm atmosphere atmospheric atoll atom atomic atoms atop atp atrium atrocities attach
attache attached attachment attack attacked attacker attackers attacking attacks attain attained attaining
attempt attempted attempting attempts attend attendance attendant attendants attended attendees attending
attends attention attested attic attire attitude attitudes attorney attorneys attract attracted attracting
attraction attractions attractive attracts attribute attributed attributes atv au aubrey auburn auckland
auction audi audible audience audiences audio audit audition auditioned auditions auditor auditorium auditory
audrey auf aug augmented augsburg august augusta auguste augustine augusto augustus aunt aura aurora aus
auschwitz auspices austen austin australia australian australians austria austrian austrians austro authentic
authentication authenticity author authored authorised authoritarian authoritative authorities authority
authorization authorized authors authorship autism auto autobiographical autobiography automated automatic
automatically automation automobile automobiles automotive autonomous autonomy autopsy autumn aux auxiliary av
ava avail availability available avalanche avalon avant avatar ave avenge avengers avenue avenues average
averaged averages averaging avery aviation aviator avid avila aviv avoid avoidance avoided avoiding avoids
avon aw await awaited awaiting awake awakened awakening award awarded awarding awards aware awareness away awe
awesome awful awhile awkward awkwardly awoke ax axe axel axes axial axis axle aye az azerbaijan azerbaijani
aziz azores aztec azure ba baba babe babies babu baby babylon babylonian baccalaureate bach bachelor back
backbone backdrop backed background backgrounds backing backlash backpack backs backseat backside backstage
backstroke backup backward backwards backyard bacon bacteria bacterial bacterium bad baden badge badger badges
badly badminton bae baffled bafta bag baggage baghdad bags baha bahadur bahamas bahia bahn bahrain bai bail
bailey bain baird bait baja baked baker bakery baking baku bal bala balance balanced balancing balcony bald
baldwin balfour bali balkan balkans ball ballad ballads ballard ballast ballet ballistic balloon balloons
ballot ballots ballroom balls balthazar baltic baltimore bam bamboo ban banana bananas banco bancroft band
banda bandage bandages banded bandit bandits bands bandwidth bane bang bangalore banged banging bangkok
bangladesh bangladeshi bangor bangs banished banjo bank banker bankers banking bankrupt bankruptcy banks
banned banner banners banning banquet bao baptised baptism baptist baptiste baptized bar barack barak barangay
barbados barbara barbarian barbarians barbecue barbed barber barbie barcelona barclay bard bare bared barefoot
barely bargain bargaining barge barges bari baritone bark barked barker barking barley barlow barn barnard
barnes barnet barnett barney barns barnsley baron baroness baronet baronetcy barons barony baroque barr
barracks barrage barre barred barrel barrels barren barrett barrie barrier barriers barrington barrio
barrister barron barrow barry bars bart bartender bartholomew bartlett barton bas basal basalt base baseball
based basel baseline baseman basement bases bash basha basic basically basics basil basilica basin basins
basis basket basketball baskets basque bass bassett bassist bastard bastards bastion bat batavia batch bates
bath bathed bathing bathroom bathrooms baths bathurst batman baton bats batsman battalion battalions batted
batter battered batteries battery batting battista battle battled battlefield battles battleship battleships
battling bauer bautista bavaria bavarian baxter bay bayer bayern baylor bayou bays bazaar bb bbc bc bce be bea
beach beaches beacon beads beak beale beam beamed beaming beams bean beans bear beard bearded bearer bearing
bearings bears beast beasts beat beaten beating beatles beatrice beats beatty beau beaufort beaumont beautiful
beautifully beauty beaux beaver became because becca beck becker beckett becky become becomes becoming bed
bedford bedfordshire bedrock bedroom bedrooms beds bedside bee beech beef been beer beers bees beethoven
beetle beetles before beforehand befriended beg began begged begging begin beginning beginnings begins begs
begun behalf behave behaved behavior behavioral behaviors behaviour beheaded behind behold bei beige beijing
being beings beirut beit bel bela belarus belarusian belfast belgarath belgian belgium belgrade belief beliefs
believe believed believer believers believes believing belinda belize bell bella bellamy belle bellevue
bellowed bells belly belmont belong belonged belonging belongings belongs beloved below belt belts ben bench
benches bend bender bending bends beneath benedict benedictine benefactor beneficial benefit benefited
benefits benevolent benfica bengal bengali bengals benign benin benito benjamin benji bennett benny benoit
benson bent bentley benton benz bequeathed berber berg bergen berger bergman berkeley berkshire berlin berman
bermuda bern bernard bernardino bernardo bernhard bernie bernstein berries berry bert berth bertha bertie
bertram bertrand berwick beside besides besieged bessie best bestowed bestseller bet beta beth bethany bethel
bethlehem betray betrayal betrayed bets betsy better betting betty between beverage beverages beverley beverly
bewildered bey beyonce beyond bf bharatiya bhp bhutan bi bianca bias biased bible biblical bibliography biceps
bicycle bicycles bid bidding bids bien biennale biennial big bigger biggest bihar bike biker bikes biking
bikini bilateral bilbao bile bilingual bill billboard billed billie billing billings billion billionaire
billions bills billy bin binary bind binding binds bing bingham bingo binoculars bio biochemistry biodiversity
biographer biographical biographies biography biological biologist biology biomass biomedical biotechnology
biplane bipolar birch bird birds birmingham birth birthday birthplace births bis biscuits bisexual bishop
bishopric bishops bismarck bison bit bitch bite bites biting bits bitten bitter bitterly bitterness bizarre
bjorn bjp bk black blackberry blackburn blackened blackish blackmail blackness blackout blackpool blacks
blacksmith blackwell bladder blade bladed blades blah blaine blair blake blame blamed blaming blanc blanca
blanchard blanche blanco bland blank blanket blankets blankly blast blasted blasting blasts blaze blazed
blazers blazing bleak bled bleed bleeding blend blended blending bless blessed blessing blessings blew blind
blinded blinding blindly blindness blinds blink blinked blinking bliss blitz blizzard bloc block blockade
blockbuster blocked blocking blocks blog blogger blogs blond blonde blood blooded bloody bloom bloomberg
bloomfield bloomington blooms blossom blossoms blouse blow blowing blown blows blu blue bluegrass blues bluff
blunt blur blurred blurted blush blushed blushing bmg bmw bn bo boar board boarded boarding boards boardwalk
boasted boasts boat boating boats bob bobbed bobbie bobby bobo boca bodied bodies bodily bodo body bodyguard
bodyguards boeing boer bog bogota bohemia bohemian boil boiled boiler boilers boiling bois boise bold bolivar
bolivia bolivian bollywood bologna bolshevik bolsheviks bolt bolted bolton bolts bomb bombardier bombardment
bombay bombed bomber bombers bombing bombings bombs bon bonaparte bond bonded bonding bonds bone bones bonfire
bonn bonnet bonnie bono bonus bonuses bony boo boogie book booked booker booking booklet books bookstore boom
boomed booming boon boone boost boosted booster boot booth booths boots bop bordeaux border bordered bordering
borders bore bored boredom borg boring boris born borne borneo borough boroughs borrow borrowed borrowing
bosch bose bosnia bosnian boss bosses boston bot botanic botanical botanist botany both bother bothered
bothering botswana bottle bottled bottles bottom bottoms bought boulder boulders boulevard bounce bounced
bouncing bound boundaries boundary bounded bounds bounty bouquet bourbon bourgeois bourne bournemouth bout
boutique bouts bow bowed bowen bowie bowing bowl bowled bowler bowling bowls bowman bows box boxed boxer
boxers boxes boxing boy boycott boyd boyer boyfriend boyle boys bp br bra brace braced bracelet bracing
bracket brackets brad braden bradford bradley bradshaw brady bragg brahms braid brain brains brake brakes
braking bram bran branch branched branches branching brand branded brandenburg branding brandon brands brandt
brandy brant brasil brass brat bratislava braun brave bravery braves bravo brawl bray brazil brazilian breach
breached bread breadth break breakaway breakdown breaker breakers breakfast breaking breakout breaks
breakthrough breakup breast breasts breaststroke breath breathe breathed breathing breathless breaths bred
bree breed breeders breeding breeds breeze bremen brenda brendan brennan brent brentford brest bret brethren
breton brett breuning brew brewer brewers brewery brewing brewster brian brianna bribe bribery bribes brick
bricks bride bridge bridgeport bridges bridget brief briefcase briefing briefly briefs brien brig brigade
brigades brigadier briggs brigham bright brightened brighter brightest brightly brightness brighton brilliance
brilliant bring bringing brings brink brisbane brisk bristol brit britain britannia british britney brittany
britten brittle brno bro broad broadband broadcast broadcaster broadcasters broadcasting broadcasts broader
broadly broadway brock brodie brody broke broken broker bromley bromwich broncos bronx bronze brood brooding
brook brooke brooklyn brooks broom bros brothel brother brotherhood brothers brought broughton brow brown
browne browning brownish browns brows browser bruce bruins bruise bruised bruises brunei brunette bruno
brunswick brush brushed brushes brushing brussels brutal brutality brutally brute bryan bryant bryce bryn
bryson bs bsc bt bu bubba bubble bubbles bubbling buccaneers buchanan bucharest buck bucket buckingham
buckinghamshire buckle buckled buckley bucks bud budapest buddha buddhism buddhist buddies buddy budge budget
budgets buds buena buenos buff buffalo buffer buffet buffy bug bugs buick build builder builders building
buildings builds built bukit bulb bulbs bulgaria bulgarian bulge bulging bulk bulky bull bulldog bulldogs
bullet bulletin bullets bullock bulls bullshit bully bullying bum bump bumped bumper bumps bun bunch
bundesliga bundle bundled bundles bungalow bunk bunker bunny burden bureau bureaucracy buren burger burgess
burgundy burial burials buried burke burkina burlington burma burmese burn burned burnett burnham burning
burnley burns burnt burr burroughs burrows burst bursting bursts burt burton burundi bury burying bus busch
buses bush bushes busiest business businesses businessman businessmen bust busted buster busy but butch
butcher butler butt butte butter butterflies butterfly button buttons buy buyer buyers buying buys buzz buzzed
buzzing bwf bwv by bye bypass bypassed byrd byrne byron byte bytes byu byzantine ca cab cabaret cabbage cabin
cabinet cabinets cabins cable cables cache cactus cad cade caden cadence cadet cadets cadillac cadiz caesar
caf cafe cafes cafeteria cage cages cai cain caine cairns cairo caitlin cake cakes cal calabria calais calcium
calculate calculated calculating calculation calculations calculus calcutta calder calderon caldwell cale
caleb caledonia caledonian calendar calf calgary calhoun caliber california caliph caliphate call callahan
called caller callie calling calls callum calm calmed calming calmly calvert calves calvin cam cambodia
cambodian cambrian cambridge cambridgeshire camden came camel cameo camera cameras cameron cameroon camilla
camille camouflage camp campaign campaigned campaigning campaigns campbell camped campeonato campground
camping campo campos camps campus campuses can canada canadian canadians canadiens canal canals canary
canberra cancel canceled cancellation cancelled cancer cancers candace candi candidacy candidate candidates
candle candles candy cane canine cannabis canned cannes canning cannon cannons cannot canoe canon canonical
canons canopy cans cantata canteen canterbury canton cantonese cantor canucks canvas canyon cao cap
capabilities capability capable capacities capacity capcom cape capita capital capitalism capitalist capitals
capitol capped cappella caps capsule capt captain captained captains captive captives captivity capture
captured captures capturing car cara caracas caravan carbon carbonate card cardboard cardiac cardiff cardinal
cardinals cardiovascular cards care cared career careers careful carefully careless cares caress caressed
caressing caretaker carey cargo caribbean caring carl carla carleton carlisle carlo carlos carlson carlton
carly carmel carmen carmichael carmine carnage carnegie carnival carol carole carolina caroline carolyn
carousel carp carpathian carpenter carpet carpets carr carriage carriages carrie carried carrier carriers
carries carroll carrot carry carrying cars carson cart cartel carter carthage cartoon cartoonist cartoons
cartridge cartridges carts cartwright carved carver carving carvings cary cas casa casablanca cascade case
cases casey cash casimir casino casinos casket casper caspian cass cassandra cassette cassidy cassie cast
caste castes castile castillo casting castle castles castro casts casual casually casualties casualty cat
catalan catalina catalog catalogue catalonia catalyst catalytic catastrophe catastrophic catch catcher catches
catching catchment categories categorized category cater catering catfish cathedral catherine catholic
catholicism catholics cathy cats cattle caucasian caucasus caucus caught causal cause caused causes causeway
causing caution cautious cautiously cavalier cavaliers cavalry cave cavendish cavern caves cavity cayman cb
cbc cbe cbn cbs cc cd cdc cdp cds ce cease ceased ceasefire cebu cecil cecilia cedar ceded cedric ceiling
ceilings celaena celebrate celebrated celebrates celebrating celebration celebrations celebrities celebrity
celeste celestial celia celine cell cellar cello cells cellular celtic celtics cement cemeteries cemetery
censorship census cent centenary centennial center centered centers centimeters centimetres central
centralized centrally centre centred centres centro cents centuries century ceo cerambycidae ceramic ceramics
cereal cerebral ceremonial ceremonies ceremony cerro certain certainly certainty certificate certificates
certification certified cervical cesar cesare cessna ceylon cf cfa cfl ch cha chad chain chained chains chair
chaired chairman chairperson chairs chalk challenge challenged challenger challenges challenging chalmers
chamber chamberlain chambers champ champagne champaign champion championed champions championship
championships champs chan chance chancel chancellor chances chandler chandra chang change changed changes
changing channel channels chant chanting chants chao chaos chaotic chapel chapels chaplain chaplin chapman
chapter chapters char character characterised characteristic characteristics characterization characterized
characters charcoal charge charged chargers charges charging chariot charismatic charitable charities charity
charlemagne charles charleston charley charlie charlotte charlton charm charming charms charred chart charted
charter chartered charters charting charts chase chased chases chasing chassis chat chateau chatham
chattanooga chatter chatting chavez che cheap cheaper cheat cheated cheating check checked checking checkpoint
checks cheek cheekbones cheeks cheer cheered cheerful cheerfully cheering cheerleading cheers cheese chef
chefs chelsea cheltenham chemical chemicals chemist chemistry chemotherapy chen cheney cheng chennai cher
cherokee cherry cheryl chesapeake cheshire chess chest chester chesterfield chestnut chests chet cheung
chevalier chevrolet chevy chew chewed chewing cheyenne chi chiang chiba chicago chichester chick chicken
chickens chicks chico chief chiefly chiefs chieftain chihuahua child childbirth childhood childish childless
children chile chilean chili chill chilled chilling chilly chimed chimney chimneys chin china chinatown
chinese ching chip chips chloe chloride cho chocolate choi choice choices choir choirs choke choked choking
cholera chong choose chooses choosing chop chopin chopped chopper chopra choral chorale chord chords
choreographed choreographer choreography chores chorus chose chosen chow chris christ christchurch christensen
christi christian christianity christians christie christina christine christmas christoph christophe
christopher christy chrome chromosome chromosomes chronic chronicle chronicles chronological chronology
chrysler chu chuck chuckle chuckled chuckles chun chung chunk chunks church churches churchill churchyard
churning ci cia cicero cid cigar cigarette cigarettes cincinnati cinder cinderella cindy cinema cinemas
cinematic cinematographer cinematography cinnamon cipher circa circle circled circles circling circuit
circuits circular circulated circulating circulation circumstance circumstances circus cis cisco citadel
citation citations cite cited cites cities citing citizen citizens citizenship citrus city ciudad civic civil
civilian civilians civilization civilizations civilized ck cl clad clade claim claimed claiming claims clair
claire clamped clan clancy clandestine clans clap clapped clapping clapton clara clare claremont clarence
clarified clarify clarinet clarissa clarity clark clarke clarkson clary clash clashed clashes clasp clasped
class classed classes classic classical classics classification classifications classified classify classmate
classmates classroom classrooms claude claudia claudio claudius claus clause clauses claw clawed claws clay
clayton clean cleaned cleaner cleaning cleansing cleanup clear clearance cleared clearer clearing clearly
clears cleavage clemens clement clements clemson clench clenched clenching cleopatra clergy clergyman cleric
clerical clerk clerks clermont cleveland clever click clicked clicking clicks client clients cliff clifford
cliffs clifton climate climates climatic climax climb climbed climbing climbs clinch clinched clinging clinic
clinical clinics clint clinton clip clipped clips clit clive cloak clock clocks clockwise clone clones close
closed closely closeness closer closes closest closet closing closure cloth clothed clothes clothing cloud
clouded clouds cloudy clover clown club clube clubhouse clubs clue clues clumsy clung cluster clustered
clusters clutch clutched clutches clutching clyde cm cmll cn cnn co coa coach coached coaches coaching coal
coalition coarse coast coastal coaster coastline coasts coat coated coating coats cobalt cobb cobra coca
cocaine cochin cochran cochrane cock cocked cockpit cocktail cocky coco cocoa coconut cod code coded codes
codex coding cody coe coefficient coefficients coffee coffin cognition cognitive cohen coherent coil coiled
coin coinage coincide coincided coincidence coincidentally coined coins coke col cola colbert colby colchester
cold colder coldly cole coleman coli colin coliseum collaborate collaborated collaborating collaboration
collaborations collaborative collaborator collaborators collapse collapsed collapses collapsing collar
collarbone collateral colleague colleagues collect collected collecting collection collections collective
collectively collector collectors collects colleen college colleges collegiate collided collier colliery
collin collingwood collins collision collisions colloquially cologne colombia colombian colombo colon colonel
colonial colonies colonists colonization colony color colorado coloration colored colorful coloring colors
colossal colour coloured colourful colours colt colton colts columbia columbian columbus column columnist
columns com coma comb combat combatants combination combinations combine combined combines combining combo
combustion come comeback comedian comedians comedic comedies comedy comes comet comets comfort comfortable
comfortably comforting comic comical comics coming command commandant commanded commander commanders
commanding commando commandos commands commemorate commemorated commemorates commemorating commemoration
commemorative commence commenced commencement commencing commendation commended comment commentaries
commentary commentator commentators commented commenting comments commerce commercial commercially commercials
commission commissioned commissioner commissioners commissioning commissions commit commitment commitments
commits committed committee committees committing commodities commodity commodore common commonly commonplace
commons commonwealth commotion communal commune communes communicate communicated communicating communication
communications communion communism communist communists communities community commuted commuter como compact
companies companion companions company comparable comparative comparatively compare compared compares
comparing comparison comparisons compartment compartments compass compassion compassionate compatibility
compatible compelled compelling compensate compensated compensation compete competed competence competent
competes competing competition competitions competitive competitor competitors compilation compilations
compiled compiler compiling complain complained complaining complaint complaints complement complementary
complete completed completely completes completing completion complex complexes complexion complexity
compliance compliant complicated complications complied compliment complimented comply component components
compose composed composer composers composing composite composition compositions composure compound compounds
comprehend comprehension comprehensive compressed compression compressor comprise comprised comprises
comprising compromise compromised compton compulsion compulsory computation computational compute computed
computer computers computing comrade comrades comte comune con conan concacaf conceal concealed conceded
conceived concentrate concentrated concentrating concentration concentrations concepcion concept conception
concepts conceptual concern concerned concerning concerns concert concerto concerts concession concessions
conclude concluded concludes concluding conclusion conclusions concord concordia concourse concrete
concurrency concurrent concurrently concussion conde condemn condemnation condemned condemning condensed
condition conditional conditioned conditioning conditions condo condom condoms condor conduct conducted
conducting conductor conductors conducts cone cones confederacy confederate confederates confederation
conference conferences conferred confess confessed confesses confession confessions confidence confident
confidential confidently configuration configurations configured confined confinement confines confirm
confirmation confirmed confirming confirms confiscated conflict conflicting conflicts confluence conform
confront confrontation confronted confronting confronts confuse confused confusing confusion cong congenital
congestion conglomerate congo congratulations congregation congregational congregations congress congresses
congressional congressman conical conjecture conjunction connacht connect connected connecticut connecting
connection connections connectivity connector connects connell conner connie connolly connor conor conquer
conquered conqueror conquest conrad conscience conscious consciously consciousness conscription consecrated
consecration consecutive consensus consent consequence consequences consequently conservation conservative
conservatives conservatoire conservatory conserve conserved consider considerable considerably consideration
considerations considered considering considers consist consisted consistency consistent consistently
consisting consists consolation console consoles consolidate consolidated consolidation consonant consonants
consort consortium conspicuous conspiracy constable constabulary constance constant constantin constantine
constantinople constantly constellation constituencies constituency constituent constituents constitute
constituted constitutes constitution constitutional constrained constraint constraints construct constructed
constructing construction constructions constructive consul consular consulate consult consultancy consultant
consultants consultation consultative consulted consulting consume consumed consumer consumers consuming
consumption contact contacted contacts contain contained container containers containing containment contains
contaminated contamination contemplated contemplating contemporaries contemporary contempt contend contender
contenders content contention contentious contents contest contestant contestants contested contests context
contexts contiguous continent continental continents contingent continual continually continuation continue
continued continues continuing continuity continuous continuously continuum contra contract contracted
contracting contraction contractor contractors contracts contractual contradiction contradictory contrary
contrast contrasted contrasting contrasts contribute contributed contributes contributing contribution
contributions contributor contributors control controlled controller controllers controlling controls
controversial controversies controversy convection convened convenience convenient convent convention
conventional conventions converge convergence conversation conversations converse conversely conversion
conversions convert converted convertible converting converts convex convey conveyed convict convicted
conviction convictions convicts convince convinced convinces convincing convoy convoys conway cook cooke
cooked cookie cookies cooking cooks cool cooled cooler cooling coop cooper cooperate cooperation cooperative
coordinate coordinated coordinates coordinating coordination coordinator cop copa cope copeland copenhagen
copied copies coping copper cops coptic copy copying copyright cora coral corbett corbin cord cordoba cords
core cores corey corinne cork corn cornelius cornell corner cornerback cornered corners cornerstone cornice
cornish cornwall corona coronation coroner corp corporal corporate corporation corporations corps corpse
corpses corpus correct corrected correction correctional corrections correctly correlated correlation
correspond corresponded correspondence correspondent corresponding corresponds corridor corridors corrosion
corrugated corrupt corrupted corruption corsica cortes cortex corvette cory cosmetic cosmetics cosmic
cosmopolitan cosmos cost costa costello costing costly costs costume costumes cot cote cottage cottages cotton
couch cougars cough coughed coughing could couldn coulter council councillor councillors councils counsel
counseling counselor count countdown counted counter counterattack countered counterpart counterparts counters
countess counties counting countless countries country countryside counts county coup coupe couple coupled
couples coupling courage courageous courier course courses court courtesy courthouse courtney courtroom courts
courtship courtyard cousin cousins cove coven covenant covent coventry cover coverage covered covering covers
covert coveted cow cowan coward cowboy cowboys cows cox coyote coyotes cozy cp cpc cpi cpu cr crab crabs crack
cracked cracking cracks cradle cradled craft crafted crafts craftsman craftsmen craig crambidae cramer cramped
crane cranes crank crap crash crashed crashes crashing crate crater craters crates craved craven craving
crawford crawl crawled crawley crawling crazed crazy creaked cream creamy create created creates creating
creation creations creative creativity creator creators creature creatures credentials credibility credible
credit credited creditors credits cree creed creek creeks creep creeping creepy cremated creole crept crescent
crest crested cretaceous crete crew crewe crews cricket cricketer cried cries crime crimea crimean crimes
criminal criminals crimson cringed crippled crises crisis crisp cristina criteria criterion critic critical
critically criticised criticism criticisms criticized criticizing critics critique croatia croatian croats
crocodile croft croix cromwell crook crooked crop crops crore crosby cross crossbow crossed crosses crossing
crossings crossover crossroads crotch crouch crouched crow crowd crowded crowds crowe crowley crown crowned
crowns crows croydon crucial crude cruel cruelty cruise cruiser cruisers cruises cruising crumbling crumpled
crunch crusade crusader crusaders crush crushed crushing crust cruz cry crying crypt cryptic crystal
crystalline crystals cs csa csi ct ctv cu cub cuba cuban cube cubic cubs cuckoo cue cues cuff cuffs cuisine
culinary cullen culminated culminating cult cultivated cultivation cultural culturally culture cultures cum
cumberland cumbria cummings cumulative cunning cunningham cup cupboard cupped cupping cups curate curated
curator curb cure cured curiosity curious curiously curl curled curling curls curly curran currency current
currently currents curriculum currie curry curse cursed curses cursing curt curtain curtains curtis curtiss
curvature curve curved curves curving cushion cushions custer custody custom customary customer customers
customized customs cut cute cuthbert cutler cuts cutter cutting cv cw cy cyber cycle cycles cyclic cycling
cyclist cyclists cyclone cyclones cylinder cylinders cylindrical cynical cynthia cypress cypriot cyprus cyril
cyrillic cyrus czech czechoslovak czechoslovakia da dad daddy dade daemon dagger daggers dahl dai dail daily
dairy daisy dakota dal dalai dale dali dallas dalton daly dam damage damaged damages damaging damascus dame
damian damien dammit damn damned damon damp dams dan dana dance danced dancer dancers dances dancing dane
danes danger dangerous dangerously dangers dangling dani daniel daniela danielle daniels danish danny dans
dante danube danzig daphne dar darby darcy dare dared daring dario darius dark darkened darkening darker
darkest darkly darkness darling darlington darmstadt darrell darren darryl dart darted darting dartmouth darts
darwin daryl das dash dashboard dashed dat data database databases date dated dates dating daughter daughters
dauphin dave davenport davey david davidson davies davis davy dawn dawned dawson dax day daylight days daytime
dayton daytona daze dazed dazzling db dc dd de dea deacon dead deadline deadly deaf deafening deal dealer
dealers dealing dealings deals dealt dean dear death deaths debate debated debates debating debbie deborah
debra debris debt debts debut debuted debuting debuts dec decade decades decatur decay decca deceased december
decent deception decide decided decidedly decides deciding deciduous decimal decision decisions decisive deck
decker decks declan declaration declare declared declares declaring decline declined declines declining deco
decommissioned decomposition decor decorate decorated decoration decorations decorative decrease decreased
decreases decreasing decree decreed decrees dedicated dedication dee deed deeds deemed deep deepened deeper
deepest deeply deer def defamation default defaulted defeat defeated defeating defeats defect defected
defective defects defence defences defend defendant defendants defended defender defenders defending defense
defenses defensive defiance defiant deficiency deficit define defined defines defining definite definitely
definition definitions definitive deformation defunct degradation degraded degree degrees dei deities deity
del delaney delaware delay delayed delaying delays delegate delegates delegation deleted delgado delhi
deliberate deliberately delicate delicately delicious delight delighted delightful delilah deliver delivered
deliveries delivering delivers delivery dell della delle delta deluxe dem demand demanded demanding demands
demeanor dementia demetrius demi demise demo democracy democrat democratic democrats demographic demographics
demolished demolition demon demonic demons demonstrate demonstrated demonstrates demonstrating demonstration
demonstrations demonstrators demos demoted dempsey den deng denial denied denies denim denis denise denmark
dennis denny denomination denominations denote denoted denotes denounced dense densely density dent dental
dentist dentistry denton denver deny denying depart departed departing department departmental departments
departure depend depended dependence dependency dependent depending depends depict depicted depicting
depiction depictions depicts depleted deploy deployed deployment deportation deported deportivo deposed
deposit deposited deposition deposits depot depressed depression deprivation deprived dept depth depths
deputies deputy der derby derbyshire derek derelict derivation derivative derivatives derive derived derives
derrick derry des descend descendant descendants descended descending descends descent describe described
describes describing description descriptions descriptive desert deserted deserts deserve deserved deserves
design designate designated designation designations designed designer designers designing designs desirable
desire desired desires desk desktop desmond despair desperate desperately desperation despised despite dessert
destination destinations destined destiny destroy destroyed destroyer destroyers destroying destroys
destruction destructive det detached detachment detachments detail detailed detailing details detained
detainees detect detected detecting detection detective detectives detector detectors detention deter
deteriorated deteriorating deterioration determination determine determined determines determining detonated
detrimental detroit deutsche deutschland deux dev devastated devastating devastation develop developed
developer developers developing development developmental developments develops devi deviation device devices
devil devils devin devised devlin devoid devon devote devoted devotees devotion devout dew dewey dex dexter
dfb dh dhabi dhaka dharma di dia diabetes diablo diagnosed diagnosis diagnostic diagonal diagram diagrams dial
dialect dialects dialed dialogue dialogues diameter diamond diamonds diana diane diaries diary diaspora diaz
dice dick dickens dickinson dickson dictated dictator dictatorship dictionary did didn die died diego dies
diesel diet dietary dieter dietrich differ differed difference differences different differential
differentiate differentiated differentiation differently differing differs difficult difficulties difficulty
diffuse diffusion dig digest digger digging digit digital digitally digits dignitaries dignity dil dilapidated
dilemma dillon dim dime dimension dimensional dimensions diminished dimitri dimly din dina dinah dinamo diner
ding dining dinner dinners dino dinosaur dinosaurs diocesan diocese dioceses dion dioxide dip diploma
diplomacy diplomat diplomatic diplomats dipped dipping dir dire direct directed directing direction
directional directions directive directly director directorate directorial directors directory directs dirk
dirt dirty disabilities disability disabled disadvantage disadvantaged disagree disagreed disagreement
disagreements disappear disappearance disappeared disappearing disappears disappointed disappointing
disappointment disapproval disaster disasters disastrous disbanded disbelief disc discarded discharge
discharged disciple disciples disciplinary discipline disciplined disciplines disclose disclosed disclosure
disco discomfort disconnected discontent discontinued discount discourage discouraged discourse discover
discovered discoveries discovering discovers discovery discreet discrete discretion discrimination discs
discus discuss discussed discusses discussing discussion discussions disdain disease diseases disgrace
disguise disguised disgust disgusted disgusting dish dishes disk disks dislike disliked dismantled dismay
dismiss dismissal dismissed dismissing dismounted disney disneyland disorder disorders dispatch dispatched
dispersal disperse dispersed displaced displacement display displayed displaying displays displeasure disposal
dispose disposed disposition dispute disputed disputes disqualification disqualified disregard disrepair
disrupt disrupted disruption dissatisfaction dissatisfied dissemination dissent dissertation dissipated
dissolution dissolve dissolved distal distance distances distant distillery distinct distinction distinctions
distinctive distinctly distinguish distinguished distinguishes distinguishing distorted distortion distract
distracted distracting distraction distraught distress distressed distribute distributed distributing
distribution distributions distributor distributors district districts distrust disturb disturbance
disturbances disturbed disturbing disused ditch diva dive diver divers diverse diversified diversion diversity
divert diverted divide divided divides dividing divine diving divinity division divisional divisions divorce
divorced dixie dixon dizzy dj djs dl dmitri dmitry dna do dobson doc dock docked docking docks dockyard doctor
doctoral doctorate doctors doctrine doctrines document documentaries documentary documentation documented
documenting documents dod dodd dodge dodged dodgers doe does doesn dog dogg dogs doha doherty doi doin doing
doll dollar dollars dolls dolly dolores dolphin dolphins dom domain domains dome domed domenico domes domesday
domestic domestically dominance dominant dominate dominated dominates dominating domination domingo dominic
dominican dominion dominique domino don dona donald donaldson donate donated donation donations doncaster done
donegal donetsk dong donkey donna donnell donnelly donnie donor donors donovan doo doom doomed door doorbell
doors doorstep doorway doping dora dorchester dorian doris dorm dormant dormitory dorothea dorothy dorsal
dorset dorsey dortmund dos dose doses dot dots dotted double doubled doubles doubling doubt doubted doubtful
doubts doug dough douglas douglass dove dover dow dowager down downed downfall downhill downing download
downloadable downloaded downloads downs downstairs downstream downtown downward downwards dowry doyle dozen
dozens dq dr dracula draft drafted drafting drafts drag dragged dragging dragon dragons dragoons drain
drainage drained draining drains drake drama dramas dramatic dramatically drank draped draper drastic
drastically draught draw drawer drawers drawing drawings drawn draws dread dreadful dream dreamed dreamer
dreaming dreams drenched dresden dress dressed dresser dresses dressing drew dried drift drifted drifting
drill drilled drilling drills drink drinking drinks drip dripped dripping drive driven driver drivers drives
driveway driving drone drones drop droplets dropped dropping drops drought drove drown drowned drowning drug
drugged drugs drum drummer drumming drummond drums drunk drunken drury dry drying dryly ds dso dt du dual
duane dub dubai dubbed dubious dublin dubois duc duchess duchy duck ducked ducks duct dude dudley due duel
duet duets duff duffy dug duke dukes dull duluth duly dumb dummy dumont dump dumped dumping dun dunbar duncan
dundee dune dunedin dunes dung dungeon dungeons dunkirk dunlop dunn dunne duo duplicate dupont durable duran
duration durban durga durham during dusk dusseldorf dust dustin dusty dutch duties dutton duty duval dvd dvds
dwarf dwarfs dwarves dwell dwellers dwelling dwellings dwight dwyer dye dyed dyer dying dyke dylan dynamic
dynamics dynamite dynamo dynasties dynasty dysfunction ea each eager eagerly eagle eagles ear earl earle
earlier earliest earls early earn earned earnest earning earnings earrings ears earth earthly earthquake
earthquakes ease eased easier easiest easily easing east eastbound eastenders easter eastern eastman easton
eastward eastwood easy eat eaten eater eating eaton eats ebert ebony ebook ec eccentric ecclesiastical echo
echoed echoes echoing eclectic eclipse eco ecole ecological ecology economic economical economically economics
economies economist economists economy ecosystem ecosystems ecstasy ecuador ecumenical ed eddie eddy eden
edgar edge edged edges edible edict edinburgh edison edit edited edith editing edition editions editor
editorial editors edmond edmonton edmund edna edo edouard eds eduard eduardo educate educated educating
education educational educator educators edward edwards edwin ee eel eels eerie effect effective effectively
effectiveness effects efficacy efficiency efficient efficiently effort effortlessly efforts egan egg eggs ego
egypt egyptian egyptians eh eight eighteen eighteenth eighth eighties eighty eileen ein eine einstein eireann
eisenhower either ejected ek eki el elaborate elaborated elaine elastic elbow elbows elder elderly elders
eldest eleanor elect elected election elections elector electoral electorate electors electric electrical
electrically electricity electrification electrified electro electrode electromagnetic electron electronic
electronically electronics electrons elects elegance elegant element elemental elementary elements elena
elephant elephants elevated elevation elevations elevator elevators eleven eleventh elf elgin eli elias
eligibility eligible elijah eliminate eliminated eliminating elimination eliot elisa elisabeth elise elite
elites eliza elizabeth elk ella elle ellen ellie ellington elliot elliott elliptic elliptical ellis ellison
elm elmer elongated elsa else elsewhere elsie elton elusive elves elvis ely em email emails emancipation
emanuel embankment embark embarked embarrassed embarrassing embarrassment embassy embedded emblem embodied
embrace embraced embracing embroidered embroidery embryo emerald emerge emerged emergence emergencies
emergency emerges emerging emeritus emerson emery emi emigrated emigration emil emile emilia emilio emily
eminent emir emirates emission emissions emitted emma emmanuel emmett emmy emory emotion emotional emotionally
emotions empathy emperor emperors emphasis emphasize emphasized emphasizes emphasizing empire empires
empirical employ employed employee employees employer employers employing employment employs empowered
empowerment empress emptied emptiness empty ems en enable enabled enables enabling enacted enactment enamel
enchanted encircled enclave enclosed enclosure encoded encoding encompass encompassed encompasses encompassing
encore encounter encountered encounters encourage encouraged encouragement encourages encouraging encryption
encyclopedia end endangered endeavor endeavors endeavour ended endelle endemic ending endings endless endorsed
endorsement endowed endowment ends endurance endure endured enduring enemies enemy energetic energies energy
enfield enforce enforced enforcement enforcing eng engage engaged engagement engagements engages engaging
engine engined engineer engineered engineering engineers engines england english englishman engraved engraver
engraving engravings engulfed enhance enhanced enhancement enhancing enigma enjoy enjoyable enjoyed enjoying
enjoyment enjoys enlarged enlightenment enlist enlisted enoch enormous enough enraged enriched enrichment
enrico enrique enroll enrolled enrollment ensemble ensembles ensign enslaved ensued ensuing ensure ensured
ensures ensuring enter entered entering enterprise enterprises enters entertain entertained entertainer
entertaining entertainment enthusiasm enthusiast enthusiastic enthusiastically enthusiasts entire entirely
entirety entities entitled entity entourage entrance entrances entrepreneur entrepreneurs entrepreneurship
entries entropy entrusted entry envelope enveloped environment environmental environmentally environments
envisioned envoy envy enzo enzyme enzymes ep epa epic epidemic epilogue episcopal episode episodes epithet
epoch eponymous eps epsilon epstein equal equality equally equals equation equations equator equatorial
equestrian equilibrium equipment equipped equity equivalence equivalent er era eras erase erased erasmus
erebidae erect erected erection eric erica erich erie erik erika erin eritrea ernest ernesto ernie ernst
eroded erosion erotic erratic erroneously error errors erskine erupted eruption eruptions erwin es esa
escalated escape escaped escapes escaping escort escorted escorting escorts espana especially espionage espn
esq essay essays essen essence essendon essential essentially essex est establish established establishes
establishing establishment establishments estadio estate estates este esteem esther estimate estimated
estimates estimation estonia estonian estrada estranged estuary et eta etat etc etched eternal eternity ethan
ethanol ethel ether ethernet ethical ethics ethiopia ethiopian ethnic ethnicity etienne eton etudes etymology
eu eucalyptus euclidean eugen eugene eun eurasian eureka euro euroleague europa europe european europeans
euros eurovision ev eva evacuate evacuated evacuation evade evaluate evaluated evaluating evaluation evan
evangelical evangelist evans eve evelyn even evening evenings evenly event events eventual eventually ever
everest everett evergreen everton every everybody everyday everyone everything everywhere evicted evidence
evidenced evident evidently evie evil evolution evolutionary evolve evolved evolving ewing ex exact exactly
exaggerated exam examination examinations examine examined examiner examines examining example examples exams
exasperated excavated excavation excavations exceed exceeded exceeding exceeds excel excelled excellence
excellent except exception exceptional exceptionally exceptions excerpt excerpts excess excessive exchange
exchanged exchanges exchanging exchequer excited excitedly excitement exciting exclaimed exclude excluded
excluding exclusion exclusive exclusively excursion excuse excused excuses execute executed executing
execution executions executive executives exemplary exemplified exempt exemption exercise exercised exercises
exercising exeter exhaled exhaust exhausted exhaustion exhibit exhibited exhibiting exhibition exhibitions
exhibits exile exiled exiles exist existed existence existent existing exists exit exited exiting exits exodus
exotic expand expanded expanding expands expanse expansion expansive expect expectation expectations expected
expecting expects expedition expeditionary expeditions expelled expenditure expenditures expense expenses
expensive experience experienced experiences experiencing experiment experimental experimentation experimented
experimenting experiments expert expertise experts expired explain explained explaining explains explanation
explanations explicit explicitly explode exploded explodes exploding exploit exploitation exploited exploits
exploration explore explored explorer explorers explores exploring explosion explosions explosive explosives
expo exponential export exported exports expose exposed exposing exposition exposure express expressed
expresses expressing expression expressions expressive expressway expulsion exquisite extant extend extended
extending extends extension extensions extensive extensively extent exterior external externally extinct
extinction extinguished extra extract extracted extraction extracts extraordinary extras extravagant extreme
extremely extremes eye eyebrow eyebrows eyed eyeing eyelashes eyelids eyes eyre ezekiel ezio ezra fa faa faber
fabian fabio fable fabric fabricated fabrication fabrics fabulous facade facades face facebook faced faces
facial facilitate facilitated facilitates facilitating facilities facility facing fact faction factions facto
factor factories factors factory facts factual faculties faculty fade faded fades fading fae faerie fai fail
failed failing fails failure failures faint faintly fair fairbanks fairchild fairfax fairfield fairies fairly
fairness fairs fairy faith faithful fake falcon falcons falkland fall fallen falling fallon fallout falls
false falsely faltered fame famed familiar familiarity families family famine famous famously fan fancy fang
fangs fanny fans fantasia fantasies fantastic fantasy far fare fares farewell fargo farm farmer farmers
farmhouse farming farmland farms farrell farther fascinated fascinating fascination fascism fascist fashion
fashionable fashioned faso fast fastened faster fastest fat fatal fatalities fatally fate fated fates father
fathers fatigue fatima fatty faulkner fault faults faulty fauna faust faux favor favorable favorably favored
favorite favorites favors favour favourable favoured favourite favourites fay faye fbi fc fcc fda fe fear
feared fearful fearing fearless fears feasibility feasible feast feat feather feathers featherweight feature
featured features featuring feb february fed federal federally federation federer federico fee feed feedback
feeder feeding feeds feel feeling feelings feels fees feet fei fein feldman felicia felicity felipe felix fell
fellow fellows fellowship fellowships felony felt female females feminine feminism feminist femme fen fence
fences fencing fender feng fenton feral ferdinand fergus ferguson fern fernandez fernando ferns ferocious
ferrara ferrari ferreira ferrer ferries ferris ferry fertile fertility fest festival festivals festivities
fetal fetch feud feudal fever few fewer fey ff fi fia fiance fiancee fiat fiba fiber fibers fibre fiction
fictional fictitious fiddle fide fidelity field fielded fielder fielding fields fierce fiercely fiery fiesta
fifa fife fifteen fifteenth fifth fifties fifty fig fight fighter fighters fighting fights figurative figure
figured figures figuring fiji file filed files filing filipino filippo fill filled filling fills filly film
filmed filmfare filming filmmaker filmmakers filmmaking films filter filtered filtering filters filthy fin
final finale finalist finalists finalized finally finals finance financed finances financial financially
financing finch find finding findings finds fine fined finely finer fines finest finger fingered fingernails
fingerprints fingers fingertips finish finished finishes finishing finite finland finley finn finnish fins
fiona fir fire firearm firearms fired firefighters fireplace fires fireworks firing firm firmly firms first
firstly firth fis fiscal fischer fish fished fisher fisheries fisherman fishermen fishery fishes fishing
fission fist fisted fists fit fitch fitness fits fitted fitting fitz fitzgerald fitzpatrick fitzroy fivb five
fix fixed fixing fixture fixtures fjord fk fl flag flags flagship flair flame flames flaming flanagan flanders
flank flanked flanking flanks flap flaps flare flared flash flashback flashbacks flashed flashes flashing
flashlight flat flatly flats flattened flavor flavors flavour flaw flawed flawless flaws flea fled fledged
fledgling flee fleeing flees fleet fleeting fleets fleetwood fleming flemish flesh fletcher flew flex flexed
flexibility flexible flick flicked flicker flickered flickering flicking flies flight flights flinch flinched
flinders fling flint flip flipped flipping flirt flirting float floated floating floats flock flood flooded
flooding floods floor floors flop flopped floppy flora floral florence flores florian florida flotilla flour
flourish flourished flourishing flow flowed flower flowering flowers flowing flown flows floyd flu
fluctuations fluent fluffy fluid fluids flung fluorescent flush flushed flushing flute flutes flutter
fluttered fluttering flux fly flyer flyers flying flynn fm foam focal focus focused focuses focusing foe fog
foil fold folded folder folding folds foley foliage folk folklore folks follow followed follower followers
following follows folly fond font fontaine fontana foo food foods fool fooled foolish fools foot footage
football footballer footballers footed foothills footing footprint footprints footsteps for foraging forbade
forbes forbid forbidden force forced forceful forcefully forces forcibly forcing ford fordham fore forearm
forearms forecast forefront forehead foreign foreigner foreigners foreman foremost forensic forerunner forest
forested forestry forests forever forewings foreword forge forged forget forgetting forgive forgiven
forgiveness forgot forgotten fork forks form formal formally format formation formations formats formed former
formerly formidable forming forms formula formulas formulated formulation forrest forster forsyth fort forte
forth forthcoming fortification fortifications fortified fortress forts fortunate fortunately fortune fortunes
forty forum forums forward forwards fossil fossils foster fought foul found foundation foundations founded
founder founders founding foundry fountain fountains four fourier fours fourteen fourteenth fourth fowler fox
foxes foyer fr fra fraction fracture fractured fractures fragile fragment fragmentation fragmented fragments
fragrance frail frame framed frames framework framing fran francais francaise france frances francesca
francesco franchise franchises francis franciscan francisco franco francois francoise francs frank
frankenstein frankfurt frankie frankish franklin frankly franks frantic frantically franz fraser fraternity
fraud fraudulent fray frazier freak freaked freaking freaks fred freddie freddy frederic frederick fredrik
free freed freedom freedoms freeing freelance freely freeman freestyle freeway freeze freezing freiburg
freight freighter fremantle fremont french frenchman frenzy frequencies frequency frequent frequented
frequently fresco frescoes fresh freshly freshman freshmen freshwater fresno freud frey freyja friar friars
friction friday fridays fridge fried friedman friedrich friend friendly friends friendship friendships fries
frigate frigates fright frightened frightening fringe fritz frog frogs from front frontal fronted frontier
frontiers frontman fronts frost frown frowned frowning frowns froze frozen frs fruit fruits frustrated
frustrating frustration fry ft fu fuck fucked fucking fuel fueled fuels fugitive fuji fujian fukuoka fulbright
fulfill fulfilled fulfilling fulfillment fulham full fullback fuller fully fulton fumble fumbled fun function
functional functionality functioned functioning functions fund fundamental fundamentally funded funding
fundraiser fundraising funds funeral fungal fungi fungus funk funky funnel funny fur furious furiously
furlongs furnace furnished furnishings furniture furrowed furry further furthermore fury fuscous fuse fused
fuselage fusiliers fusion fuss futile futsal future futures futuristic fuzzy fx ga gaa gabby gabe gable gabled
gables gabon gabriel gabrielle gaddafi gael gaelic gag gaga gage gail gain gained gaines gaining gains gaius
gal gala galactic galaxies galaxy gale galen galerie galicia galician galilee galileo gall gallagher gallant
gallantry galleries gallery galley gallo gallon gallons galloway galveston galway gambia gamble gambling game
gameplay gamer games gaming gamma gan gandhi gang ganga gangs gangster gao gap gaped gaping gaps garage
garbage garcia garde garden gardener gardening gardens gardiner gardner gareth garfield garion garland garlic
garment garments garner garnered garrett garrison garry garth gary gas gases gasoline gasp gasped gasping
gasps gaston gastropod gate gates gateway gather gathered gathering gatherings gathers gauge gaul gaulle gaunt
gave gavin gay gaza gaze gazed gazes gazette gazing gb gdansk gdp ge gear gearbox geared gears gee geek
geelong geese gel gem gemini gemma gems gen gender gene genealogical genealogy genera general generalized
generally generals generate generated generates generating generation generations generator generators generic
generosity generous genes genesis genetic genetically genetics geneva genevieve genie genius genoa genocide
genome genre genres gentle gentleman gentlemen gently gentry genuine genuinely genus geo geoff geoffrey
geographic geographical geographically geography geologic geological geologist geology geometric geometridae
geometry georg george georges georgetown georgia georgian georgie georgina gerais gerald geraldine gerard
gerhard germain german germanic germans germany gerry gershwin gertrude geschichte gesellschaft gestapo
gesture gestured gestures gesturing get gets getting gettysburg ghana ghanaian ghent ghetto ghost ghostly
ghosts ghz gi gia giacomo giant giants gibbons gibbs gibraltar gibson gideon gifford gift gifted gifts gig
gigantic giggle giggled giggles giggling gigs gil gilbert gilded giles gill gilles gillespie gillian gills
gilmore gin gina ginger gingerly giorgio giovanni girl girlfriend girlfriends girls giro giuseppe give given
gives giving glacial glacier glaciers glad gladly gladstone gladys glamorgan glamour glance glanced glances
glancing gland glands glare glared glaring glasgow glass glasses glazed gleam gleamed gleaming glee glen
glendale glenn glide glided glider gliding glimpse glint glistening glitter glittering global globalization
globally globe gloom gloria glorious glory gloss glossy gloucester gloucestershire glove glover gloves glow
glowed glowing glucose glue glued gm gma gmbh gmina gnome gnu go goa goal goalkeeper goals goalscorer
goaltender goat goats goblin god goddamn goddard goddess godfather godfrey gods godzilla goes goethe gogh goin
going gold goldberg golden goldman goldsmith goldstein golf golfer gomez gone gong gonna gonzaga gonzales
gonzalez goo good goodbye goodman goodness goodnight goods goodwill goodwin goofy google goose gora goran
gordon gore gorge gorgeous gorilla gorman gospel gospels gossip got goth gotham gothenburg gothic gotta gotten
gottfried gottingen gough gould gov govern governance governed governing government governmental governments
governor governorate governors govt gown gp gps gr grab grabbed grabbing grabs grace graceful gracefully
gracie grade graded graders grades gradient grading gradual gradually graduate graduated graduates graduating
graduation grady graeme graf graffiti grafton graham grain grains gram grammar grammatical grammy grams gran
granada grand grandchildren granddaughter grande grandfather grandma grandmaster grandmother grandpa
grandparents grandson grange granite granny grant granted granting grants granville grape grapes graph graphic
graphical graphics graphs grasp grasped grasping grass grasses grassland grasslands grassroots grassy grateful
gratitude grave gravel gravely graves graveyard gravitational gravity gray grayson graz grazed grazing grease
greasy great greater greatest greatly greaves greco greece greed greedy greek greeks green greenberg greene
greenfield greenhouse greenish greenland greens greensboro greenville greenwich greenwood greer greet greeted
greeting greg gregg gregor gregorian gregory grenada grenade grenades greta gretchen grew grey greyhound
greyish grid grief griffin griffith griffiths grill grille grim grimace grimaced grimes grimly grimm grimsby
grin grind grinding grinned grinning grins grip gripped gripping grips grit gritted groan groaned groaning
groans groceries grocery groin groningen groom groove grooves gross grossed grossing grotesque ground
groundbreaking grounded grounds groundwater group grouped grouping groups grove grover groves grow growing
growl growled growling growls grown grows growth gruff grumbled grunt grunted grupo gs gt gu guadalajara
guadalupe guam guangdong guangzhou guantanamo guarantee guaranteed guarantees guard guarded guardian guardians
guarding guards guatemala gubernatorial guernsey guerra guerre guerrero guerrilla guerrillas guess guessed
guessing guest guests guggenheim gui guiana guidance guide guided guidelines guides guiding guido guild
guildford guillaume guillermo guilt guilty guinea guineas guinness guise guitar guitarist guitarists guitars
gujarat gujarati gulf gulp gulped gum gun gundam gunfire gunmen gunn gunnar gunner gunners gunnery gunpowder
guns gunshot gunslinger gunter gunther guo gupta gurney guru gus gust gustav gustave gustavo gut guthrie
gutierrez guts guy guyana guys guzman gwen gym gymnasium gymnast gymnastics gypsy ha haas habit habitat
habitats habits habsburg hack hacked hacker hackett hacking hackney had hades hadley hadn hagen haggard hague
hahn hai haifa hail hailed hailey hair haired hairs hairy haiti haitian haji hal hale haley half halftime
halfway halifax hall halle hallmark halloween halls hallway hallways halo halt halted halves ham hamas hamburg
hamburger hamid hamilton hamish hamlet hamlets hammer hammered hammering hammersmith hammond hampered
hampshire hampson hampstead hampton han hana hancock hand handball handbook handcuffs handed handel handful
handgun handheld handicap handicapped handing handkerchief handle handled handler handles handling hands
handsome handwriting handy hang hangar hanged hanging hangs hangul hank hanna hannah hannibal hannover hanoi
hanover hans hansen hanson hapoel happen happened happening happens happier happily happiness happy hara
harald harassed harassment harbor harbour harcourt hard hardcore hardcover harden hardened harder hardest
hardin harding hardly hardness hardship hardware hardwood hardy hare hari harlan harlem harley harlow harm
harmed harmful harmless harmon harmonic harmonica harmonies harmony harness harold harp harper harpsichord
harriet harrington harris harrisburg harrison harrow harry harsh harshly hart harta hartford hartley hartman
harvard harvest harvested harvesting harvey haryana has hasan hash hasn hassan haste hastily hastings hasty
hat hatch hate hated hates hatfield hating hatred hats haul hauled hauling haunt haunted haunting haute havana
have haven havilland having havoc havre hawaii hawaiian hawk hawke hawker hawkins hawks hawthorn hawthorne hay
hayden haydn hayes haynes hays hayward hazard hazardous hazards haze hazel hazy hbo hc hd he head headache
headed header heading headlights headline headlined headlines headlining headmaster headquartered headquarters
heads headwaters heal healed healer healing health healthcare healthy healy heap hear heard hearing hearings
hears hearst heart heartbeat heartbreak hearted hearth heartland hearts heat heated heath heather heating
heats heaved heaven heavenly heavens heavier heaviest heavily heaving heavy heavyweight hebrew heck hectare
hectares hector hedge hedges hee heel heels heidelberg heidi height heightened heights heinrich heinz heir
heiress heirs held helen helena helene helens helicopter helicopters helium helix hell hellenic hellenistic
heller hello helm helmet helmets helmut help helped helpful helping helpless helplessly helps helsinki hem
hemingway hemisphere hen henan hence henderson hendricks hendrix henley henri henrietta henrik henry henson
hepatitis hepburn her herald heraldic herb herbal herbert herbs hercules herd herds here hereditary hereford
heresy heritage herman hermann hermes hermit hermitage hernandez hero heroes heroic heroin heroine heroism
heron herr herrera herring hers herself hertfordshire herzegovina hesitant hesitantly hesitate hesitated
hesitation hess hesse het heterosexual hewitt hey hezbollah hi hiatus hickory hicks hid hidalgo hidden hide
hideous hideout hides hiding hierarchical hierarchy higgins high higher highest highland highlanders highlands
highlight highlighted highlighting highlights highly highness highs highway highways hike hiking hilarious
hilary hilbert hilda hill hillary hills hillsborough hillside hilltop hilly hilt hilton him himalayan
himalayas himself hind hindi hindu hinduism hindus hindwings hines hinges hint hinted hints hip hips hiram
hire hired hires hiring hiroshi hiroshima hirsch his hispanic hiss hissed hissing histoire historia historian
historians historic historical historically histories history hit hitch hitchcock hitler hits hitter hitting
hiv hive hk hm hmm hms ho hoarse hoax hobart hobbs hobby hoc hockey hodge hodges hodgson hoffman hoffmann hog
hogan hoisted hokkaido hold holden holder holders holding holdings holds hole holes holiday holidays holiness
holland hollis hollow holloway holly hollywood holm holmes holocaust holstein holster holt holy homage home
homecoming homeland homeless homemade homer homes homestead hometown homework homicide homme homo homogeneous
homosexual homosexuality hon honda honduras honest honestly honesty honey honeymoon hong honneur honolulu
honor honorable honorary honored honoring honors honour honourable honoured honours hood hooded hook hooked
hooker hooks hoop hooper hoover hooves hop hope hoped hopeful hopefully hopeless hopes hoping hopkins hopped
hopper hopping horace horatio horde horizon horizons horizontal horizontally hormone hormones horn horne
horned hornet hornets horns horrible horribly horrific horrified horror horrors horse horseback horsemen
horsepower horses horseshoe horst horticultural horton hose hospice hospital hospitality hospitalized
hospitals host hostage hostages hosted hostel hostess hostile hostilities hostility hosting hosts hot hotel
hotels hotspur hotter hottest houghton hound hounds hour hourly hours house housed household householder
households housekeeper housemates houses housing houston hove hovered hovering how howard howe howell however
howie howl howled howling hp hq hr hs html http https hu hua huang hub hubbard hubert huddersfield huddled
hudson hue huey huff huffed huffington hug huge hugely hugged hugging hugh hughes hugo hugs huh hui hulk hull
hum human humane humanist humanitarian humanities humanity humanoid humans humble humboldt hume humid humidity
humiliated humiliating humiliation hummed humming humor humorous humour humphrey hunan hunched hundred
hundreds hung hungarian hungarians hungary hunger hungry hunt hunted hunter hunters hunting huntington hunts
huntsville hurdle hurdles hurled hurley hurling huron hurricane hurricanes hurried hurriedly hurry hurrying
hurst hurt hurting hurts husband husbands hush hushed huskies husky hussain hussein hut hutchinson huts hutton
hybrid hybrids hyde hyderabad hydra hydraulic hydro hydroelectric hydrogen hygiene hymn hymns hyper hypnotic
hypothesis hypothetical hysteria hysterical hyun hyundai hz ia iaaf iain ian iata ib iberian ibm ibn ibrahim
ic icao icc ice iced iceland icelandic ich icon iconic icons ict icy id ida idaho idea ideal ideally ideals
ideas identical identifiable identification identified identifies identify identifying identities identity
ideological ideology idf idiot idiots idle idol idols ie iec ieee if ign ignacio ignatius ignited ignition
ignorance ignorant ignore ignored ignores ignoring igor ii iihf iii ik ike il ile ill illegal illegally
illegitimate illicit illinois illness illnesses illuminated illuminating illumination illusion illusions
illustrate illustrated illustrates illustrating illustration illustrations illustrator illustrious im image
imagery images imaginary imagination imaginative imagine imagined imaging imagining imam imitation immaculate
immature immediate immediately immense immensely immersed immersion immigrant immigrants immigrated
immigration imminent immortal immortality immortals immune immunity imp impact impacted impacts impaired
impairment impatience impatient impatiently impending imperative imperfect imperial imperialism impetus
implant implement implementation implementations implemented implementing implements implicated implication
implications implicit implied implies imply implying import importance important importantly imported imports
impose imposed imposing impossible impoverished impress impressed impression impressions impressive imprint
imprisoned imprisonment impromptu improper improve improved improvement improvements improves improving
improvisation improvised impulse in ina inability inaccessible inaccurate inactivated inactive inadequate
inadvertently inappropriate inaugural inaugurated inauguration inc inca incapable incarcerated incarnation
incense incentive incentives inception inch inched inches incidence incident incidents inclination incline
inclined include included includes including inclusion inclusive income incomes incoming incompatible
incomplete inconsistent incorporate incorporated incorporates incorporating incorporation incorrect
incorrectly increase increased increases increasing increasingly incredible incredibly incumbent incurred ind
indeed indefinite indefinitely independence independent independently independents index indexed india indian
indiana indianapolis indians indicate indicated indicates indicating indication indications indicative
indicator indicators indices indicted indictment indie indies indifference indifferent indigenous indigo
indira indirect indirectly individual individually individuals indo indochina indonesia indonesian indoor
indoors induce induced inducing inducted induction indus industrial industrialist industries industry indy
ineffective ineligible inequality inevitable inevitably inexpensive inexperienced infamous infancy infant
infantry infants infected infection infections infectious inference inferior inferno infiltrate infinite
infinitely infinity infirmary inflammation inflammatory inflated inflation inflicted influence influenced
influences influencing influential influenza influx info inform informal informally informant information
informed informing informs infrared infrastructure infringement infused ing ingram ingredient ingredients
ingrid inhabit inhabitants inhabited inhaled inherent inherently inherit inheritance inherited inhibit
inhibition inhibitor inhibitors inhuman initial initially initials initiate initiated initiating initiation
initiative initiatives injected injection injunction injured injuries injuring injury injustice ink inland
inlet inline inmate inmates inn innate inner inning innings innocence innocent innovation innovations
innovative innsbruck inorganic input inputs inquired inquiries inquiry inquisition ins insane insanity
inscribed inscription inscriptions insect insects insert inserted insertion inside insider insides insight
insights insignia insignificant insist insisted insistence insistent insisting insists inspect inspected
inspecting inspection inspections inspector inspectors inspiration inspirational inspire inspired inspiring
instability install installation installations installed installing installment instance instances instant
instantly instead instinct instinctively instincts institut institute instituted institutes institution
institutional institutions instituto instructed instruction instructional instructions instructor instructors
instrument instrumental instrumentalist instrumentation instruments insufficient insulation insulin insult
insulted insulting insults insurance insurgency insurgents insurrection int intact intake integer integers
integral integrate integrated integrating integration integrity intel intellect intellectual intellectuals
intelligence intelligent intend intended intending intends intense intensely intensified intensity intensive
intent intention intentional intentionally intentions intently inter interact interacting interaction
interactions interactive intercept intercepted interception interceptions interceptor interchange intercity
intercollegiate intercontinental intercourse interdisciplinary interest interested interesting interests
interface interfaces interfere interfered interference interfering interim interior interiors interlude
intermediate intermittent intern internacional internal internally international internationale
internationally internationals interned internet internment internship interpret interpretation
interpretations interpreted interpreter interpreting interred interrogation interrupt interrupted interrupting
interruption intersect intersecting intersection intersections intersects interspersed interstate interval
intervals intervene intervened intervening intervention interventions interview interviewed interviewing
interviews intimacy intimate intimately intimidated intimidating intimidation into intra intricate intrigued
intriguing intrinsic intro introduce introduced introduces introducing introduction introductions introductory
intruder intrusion intuition intuitive inuit invade invaded invaders invading invalid invariably invariant
invasion invasions invasive invented invention inventions inventor inventory inverness inverse inversion
invertebrates inverted invest invested investigate investigated investigates investigating investigation
investigations investigative investigator investigators investing investment investments investor investors
invincible invisible invitation invitational invitations invite invited invites inviting invoked involuntary
involve involved involvement involves involving inward inwardly io ioc ion iona ionic ions ios iowa ip ipa
ipad iphone ipod ipswich iq iqbal ir ira iran iranian iraq iraqi ireland irene irina iris irish iron ironic
ironically irony iroquois irrational irregular irregularities irrelevant irresistible irrigation irritated
irritating irritation irs irvine irving irwin is isa isaac isabel isabella isabelle isaiah isbn isil isis isla
islam islamabad islamic islamist island islander islanders islands isle isles ismail isn iso isolate isolated
isolation isotope israel israeli israelis iss issn issue issued issues issuing ist istanbul it italia italian
italiana italianate italians italics italy item items iteration itf ithaca ito its itself itunes itv iucn iv
ivan ivanov ives ivo ivory ivy ix izzy ja jace jack jacket jackets jackie jackson jacksonville jacob jacobite
jacobs jacqueline jacques jade jae jaenelle jagged jagger jaguar jaguars jai jail jailed jaime jain jaipur
jakarta jake jakob jalan jam jamaica jamaican jamal james jameson jamestown jamie jammed jammu jan jana janata
jane janeiro janet jang janice january japan japanese jar jared jarrett jars jarvis jase jasmine jason jasper
java javanese javelin javier jaw jaws jax jay jaya jayne jays jazz jc jd je jealous jealousy jean jeanne jeans
jed jedi jeep jeff jefferson jeffrey jelly jem jen jena jenkins jenks jenna jennie jennifer jennings jenny
jens jensen jeopardy jeremiah jeremy jericho jerk jerked jerking jerome jerry jersey jerseys jerusalem jess
jesse jessica jessie jesuit jesuits jesus jet jets jett jew jewel jewellery jewelry jewels jewish jews ji jia
jian jiang jiangsu jihad jill jillian jim jimenez jimi jimmie jimmy jin jing jingle jj jo joachim joan joanna
joanne joao joaquin job jobs jocelyn jock jockey jody joe joel joey jogged jogging johan johann johanna
johannes johannesburg johansson john johnnie johnny johns johnson johnston johnstone johor join joined joining
joins joint jointly joints joke joked joker jokes joking jolly jolt jolted jon jonah jonas jonathan jones jong
jonny joo jordan jordanian jorge jose josef joseph josephine josh joshi joshua josiah josie journal journalism
journalist journalists journals journey journeys joy joyah joyce jozef jp jr ju juan juarez jubilee judah
judaism judas judd jude judge judged judgement judges judging judgment judgments judicial judiciary judith
judo judy jug juice juicy jul jules julia julian juliana julie julien juliet juliette julio julius july jump
jumped jumper jumping jumps jun junction junctions june jung jungle junior juniors juniper junk juno junta
jupiter jurassic jurgen juris jurisdiction jurisdictions jurisprudence jurist jury just justice justices
justification justified justify justin justine juvenile juveniles juventus ka kabul kade kahn kai kaiser
kaitlyn kala kaladin kali kam kamal kamen kan kane kang kangaroo kannada kansas kant kanye kaplan kapoor kappa
kara karachi karate karel karen kari karim karin karl karlsruhe karma karnataka kashmir kassel kat kata kate
katharine katherine kathleen kathmandu kathryn kathy katie kato katrina katy katz kaufman kawasaki kay kaye
kayla kazakh kazakhstan kazan kb kc ke keane keating ked keel keen keenan keep keeper keepers keeping keeps
kei keith kellan keller kelley kellogg kelly kelsey kelvin kemp ken kendall kendra kendrick kenji kennedy
kenneth kenny kensington kent kenton kentucky kenya kenyan kepler kept kerala kerman kern kernel kerr kerry
kettle kevin key keyboard keyboardist keyboards keynes keynote keys keystone kg kgb khalid khalifa khan khmer
khorasan khyber khz ki kia kiara kick kicked kicker kicking kickoff kicks kid kidd kidding kidnap kidnapped
kidnapping kidney kids kiel kiev kilda kildare kilkenny kill killed killer killers killing killings kills
kilograms kilometer kilometers kilometre kilometres kim kimball kimberley kimberly kin kinase kincaid kind
kinda kindergarten kindly kindness kinds kinetic king kingdom kingdoms kings kingsley kingston kinship kira
kiran kirby kirk kiss kissed kisses kissing kit kitchen kitchener kitchens kite kits kitten kitty klan klaus
klein km kn knee kneeling knees knelt knesset knew knicks knife knight knighted knights knit knitting knives
knob knock knocked knocking knockout knocks knot knots knotted know knowing knowledge knowles known knows knox
knoxville knuckles ko kobayashi kobe koch kochi kolkata koln kong konrad konstantin koppen korea korean
koreans kosovo kota kowalski kraft krakow kramer kris krishna kristen kristin kristina kruger ks ku kuala
kumar kun kung kunst kurdish kurdistan kurt kuwait kv kw kwan ky kyiv kyle kylie kyoto kyrgyzstan kyushu la
lab label labeled labeling labelled labels labor laboratories laboratory laborers labour labourers labrador
labs labyrinth lac lace laced lacey lack lacked lacking lacks lacrosse lacy lad ladder laden ladies lads lady
lafayette lagoon lagos laguna lahore lai laid lair laird lake lakers lakes lakeside lakshmi lal lam lama lamar
lamb lambda lambert lame lamp lamps lan lana lancashire lancaster lance land landau landed landfall landfill
landing landings landlord landmark landmarks landon landowner landowners lands landscape landscapes
landscaping landslide lane lanes lang langdon lange langley language languages lanka lankan lansing lantern
lanterns lao laos lap laps laptop lara large largely larger largest lark larkin larry lars larsen larson
larvae las laser lasers lash lashed lashes lass last lasted lasting lastly lasts laszlo latch late lately
later lateral latest latham latin latino latitude latter lattice latvia latvian lau laude lauded lauderdale
laugh laughed laughing laughs laughter launch launched launcher launches launching laundering laundry laura
laureate laurel lauren laurence laurent laurie lausanne lava laval lavender lavish law lawful lawn lawrence
laws lawson lawsuit lawsuits lawyer lawyers lax lay layer layered layers laying layla layne layout lays layton
lazarus lazy lb lbs lc lcd ld lds le lea leach lead leader leaders leadership leading leads leaf leaflets
leafs league leagues leah leak leaked leaking leaks lean leaned leaning leans leap leaped leaping leaps leapt
lear learn learned learners learning learns learnt leary lease leased leases leash leasing least leather leave
leaves leaving lebanese lebanon lecture lectured lecturer lectures led ledge ledger lee leeds left leftist leg
legacy legal legally legend legendary legends leger legged legion legions legislation legislative legislator
legislators legislature legislatures legitimacy legitimate lego legs lehigh lehman lei leicester
leicestershire leiden leigh leighton leinster leipzig leisure leith leland lemon len lena lend lending length
lengths lengthy lenin leningrad lennon lennox lenny lens lenses lent leo leon leonard leonardo leone leonid
leopard leopold leroy les lesbian lesions lesley leslie less lesser lesson lessons lest lester let lethal leto
lets letter lettering letterman letters letting leukemia leung lev levant level leveled levels lever leverage
levi levin levine levy lew lewis lex lexi lexie lexington ley leyte lgbt li lia liability liable liaison liam
liang liar libby libel liberal liberalism liberals liberated liberation liberia libertadores libertarian
liberties liberty librarian libraries library libre libretto libya libyan licence license licensed licenses
licensing lick licked licking lid lids lie liechtenstein lied liege lies lieu lieutenant life lifeboat
lifeless lifelong lifespan lifestyle lifetime lift lifted lifting lifts liga ligament ligand light lighted
lighter lighthouse lighting lightly lightning lights lightweight ligue like liked likelihood likely likened
likeness likes likewise liking lil lila lilith lille lillian lilly lily lim lima limb limbs lime limerick
limestone limit limitation limitations limited limiting limits limo limousine limp lin lina lincoln
lincolnshire linda linden lindsay lindsey line lineage linear linebacker lined lineman linen liner lines
lineup ling linger lingered lingering linguist linguistic linguistics lining link linked linking links
linnaeus linux lion lionel lions lip lips lipstick liquid liquidation liquids liquor lisa lisbon lissa list
listed listen listened listener listeners listening lister listing listings lists liszt lit liter literacy
literal literally literary literature lithium lithuania lithuanian litigation litre litres litter littered
little liturgical liturgy liu liv live lived livelihood lively liver liverpool livery lives livestock living
livingston livingstone liz liza lizard lizards lizzie ljubljana ll llc lloyd lo load loaded loading loads loaf
loan loaned loans lobbied lobby lobbying lobe lobes lobster local localities locality localized locally locals
locate located locating location locations loch lock locke locked locker lockheed locking locks loco
locomotive locomotives locus lodge lodged lodges lodging loft log logan logged logging logic logical
logistical logistics logo logos logs loire lois lok loki lola lombard lombardy london lone loneliness lonely
long longed longer longest longevity longing longitude longitudinal longtime look looked looking lookout looks
loomed looming loop loops loose loosely loosen loosened looted looting lopez lord lords lordship lore loren
lorenzo loretta lori lorraine los lose loser losers loses losing loss losses lost lot lots lottery lotus lou
loud louder loudly lough louie louis louisa louise louisiana louisville lounge louvre love loved lovely lover
lovers loves loving low lowe lowell lower lowered lowering lowers lowest lowland lowlands lowry loyal loyalist
loyalists loyalty loyola lp lsu lt ltd lu lublin luc luca lucan lucas luce lucha lucia lucian luciano lucie
lucien lucifer lucille lucinda lucius lucivar luck luckily lucknow lucky lucrative lucy ludwig luftwaffe
luggage luigi luis luisa lukas luke lullaby lulu lumber luminous lump lumpur luna lunar lunatic lunch lund
lung lunged lungs lurched lure lured lurking lush lust luther lutheran luton lux luxembourg luxurious luxury
luz luzon lviv lydia lying lyle lyman lynch lyndon lynn lynne lynx lyon lyons lyric lyrical lyricist lyrics ma
mab mabel mac macarthur macau macbeth maccabi macdonald mace macedonia macedonian mach machine machinery
machines macintosh mack mackay mackenzie maclean macleod macmillan macon macquarie macro macy mad madagascar
madam madame madden maddie maddox maddy made madeira madeleine madeline madhya madison madly madman madness
madonna madras madrid mae maestro mafia mag magazine magazines magdalena magdalene mage maggie magic magical
magician magistrate magistrates magma magna magnate magnesium magnet magnetic magnificent magnitude magnolia
magnum magnus maguire maha mahal maharaja maharashtra mahmoud mahmud mahogany mai maia maid maiden maids mail
main maine mainland mainline mainly mainstream maintain maintained maintaining maintains maintenance mainz
maison maitland maize maj majestic majesty major majority majors make maker makers makes makeshift makeup
making mal mala malabar malacca malaga malaria malawi malay malaya malayalam malaysia malaysian malcolm
maldives male males mali malibu malice malicious malik mall malley mallory malls malmo malone malta maltese
malvern mama mammal mammalian mammals mammoth man mana manage managed management manager managerial managers
manages managing manchester manchu mandal mandarin mandate mandated mandates mandatory mandela mandir mandolin
mandy mane maneuver maneuvers manfred manga mango mangrove manhattan mani mania manifest manifestation
manifested manifesto manifold manila manipulate manipulated manipulating manipulation manitoba mankind manly
mann manned manner manners mannheim manning manny manor manpower mans mansfield mansion mansions manson mantle
mantra manual manually manuel manufacture manufactured manufacturer manufacturers manufactures manufacturing
manuscript manuscripts many mao maori map maple mapped mapping maps mar mara marathi marathon marble marc
marcel marcelo march marche marched marches marching marcia marco marcos marcus mare marek margaret margarita
marge margin marginal margins margot marguerite mari maria marian mariana marianne mariano marie marijuana
marilyn marin marina marine mariners marines marino mario marion maris marissa marital maritime marius
marjorie mark marked markedly marker markers market marketed marketing marketplace markets markham marking
markings marko marks markus marlborough marlene marley marlins marlon marne maroon marquess marquette marquez
marquis marred marriage marriages married marries marriott marrow marry marrying mars marsden marseille marsh
marshal marshall marshes mart marta martha martial martian martin martina martinez martini martinique martins
marty martyr martyrs maru marvel marvelous marvin marx marxism marxist mary maryland marylebone mas mascara
mascot masculine masjid mask masked masks mason masonic masonry masovian mass massachusetts massacre massage
masses massey massif massimo massive mast master mastered mastering masterpiece masters mastery mat mata match
matched matches matching mate mated mateo mater material materialized materials maternal maternity mates math
mathematical mathematician mathematicians mathematics mathew mathews mathias matilda mating matrices matrix
mats matt matteo matter mattered matters matthew matthews matthias mattress mature maturity maud maui maureen
maurice mauritius mausoleum maverick mavericks max maxi maxim maximal maximilian maximize maximum maximus
maxwell may maya maybe mayer mayfair mayfield mayhem maynard mayo mayor mayoral mayors mazda maze mb mba mbc
mbe mc mca mcbride mcc mccain mccall mccann mccarthy mccartney mcconnell mccormick mccoy mcdonald mcdonnell
mcdowell mcgee mcgill mcgrath mcgraw mcgregor mcguire mcintosh mcintyre mckay mckenna mckenzie mckinley
mclaren mclaughlin mclean mcleod mcmahon mcmillan mcnamara mcpherson mcqueen md me mead meade meadow meadows
meal meals mean meaning meaningful meaningless meanings means meant meantime meanwhile measure measured
measurement measurements measures measuring meat meath mecca mechanic mechanical mechanically mechanics
mechanism mechanisms mechanized mecklenburg med medal medalist medallion medallist medals media medial median
mediated mediation medical medicare medication medications medici medicinal medicine medicines medieval medina
meditation mediterranean medium medley meek meet meeting meetings meets meg mega megan mei meiji mein mel
melancholy melanie melbourne melee melinda melissa mellon melodic melodies melody melt melted melting melville
melvin member members membership membrane membranes memo memoir memoirs memorabilia memorable memorandum
memorial memorials memories memory memphis men menace menacing mendes mendez mendoza meng menon mental
mentally mention mentioned mentioning mentions mentor mentoring menu mer mercantile mercedes mercenaries
mercenary mercer merchandise merchant merchants mercury mercy mere meredith merely merge merged merger mergers
merging meridian merit meritorious merits merlin mermaid merrill merritt merry merton mesa mesh mesopotamia
mess message messages messaging messed messenger messengers messiah messina messing messy met meta metabolic
metabolism metacritic metadata metal metallic metals metaphor metaphysical meteor meteorological meter meters
methane method methodist methodology methods methyl metis metre metres metric metro metropolis metropolitan
mets metz mexican mexico meyer meyrick mfa mg mgm mhz mi mia miami mic micah mice michael michaels michel
michelangelo michele michelle michigan mick mickey micro microphone microscope microscopic microscopy
microsoft microwave mid midday middle middlesbrough middlesex middleton middletown middleweight midfield
midfielder midi midland midlands midnight midst midsummer midtown midway midwest mig might mighty migrant
migrants migrate migrated migrating migration migratory miguel mika mike mikey mikhail mil milan milano mild
mildly mildred mile miles milestone milford militant militants military militia militias milk milky mill
millennia millennium miller millie millimetres milling million millionaire millions mills milne milo milos
milton milwaukee mimi mimic min mina minas mind mindanao minded minds mine mined miner mineral minerals miners
minerva mines ming mingled minh mini miniature miniatures minimal minimize minimum mining minions miniseries
minister ministerial ministers ministries ministry minneapolis minnesota minnie minogue minor minorities
minority minors minsk mint minus minute minutes miocene mir mira miracle miracles miraculous mirage miranda
miriam mirror mirrored mirrors mirza mis miscellaneous mischief mischievous misconduct miserable misery
misleading miss missed misses missile missiles missing mission missionaries missionary missions mississippi
missouri missy mist mistake mistaken mistakenly mistakes mister mistress misty misunderstanding misunderstood
mit mitch mitchell mitochondrial mitsubishi mix mixed mixer mixes mixing mixtape mixture mk ml mla mlb mls mm
mma mmm mn mo moan moaned moaning moans moat mob mobile mobility mobilization mobilized mock mocked mocking
mod mode model modeled modeling modelled modelling models moderate moderately moderator modern modernism
modernist modernization modernized modes modest modification modifications modified modify modifying modular
modulation module modules moe moffat mohamed mohammad mohammed mohan mohawk moi moines moist moisture mojo
mold molded moldova mole molecular molecule molecules molina mollusk molly molten mom moment momentarily
momentary moments momentum momma mommy mon mona monaco monarch monarchs monarchy monasteries monastery
monastic monday mondays monde monetary money mongol mongolia mongolian mongols monica moniker monique monitor
monitored monitoring monitors monk monkey monkeys monks monmouth mono monograph monopoly monroe mons monsieur
monsoon monster monsters monstrous mont montagu montana montane monte montenegrin montenegro monterey
monterrey montevideo montgomery month monthly months montpellier montreal montrose monty monument monumental
monuments mood moods moody moon moonlight moons moor moore moors moose mor mora moral morale morales morality
morally morals moran moravian more moreno moreover morgan mori moritz morley mormon morning mornings moroccan
morocco morphological morphology morris morrison morrow morse mort mortal mortality mortally mortals mortar
mortgage mortimer morton mosaic moscow moses moshe mosque mosques mosquito moss most mostly motel moth mother
mothers moths motif motifs motion motioned motionless motions motivated motivation motive motives motor
motorcycle motorcycles motorized motorola motors motorsport motorsports motorway motown motto mound mounds
mount mountain mountainous mountains mounted mounting mounts mourning mouse mouth mouthed mouthful mouths move
moved movement movements moves movie movies moving mozambique mozart mp mph mps mr mri mrna mrs ms msc mt mtv
mu much mud muddy mueller muffled mug mughal muhammad muir mukherjee mule muller multi multicultural
multimedia multinational multiplayer multiple multiplication multiplied multitude mum mumbai mumbled mummy
munchen mundane mundo munich municipal municipalities municipality munitions munoz munro munster mural murals
murder murdered murderer murderers murdering murderous murders murdoch muriel murmur murmured murmurs murphy
murray musa muscle muscled muscles muscular muse mused musee museo museum museums mushroom mushrooms music
musica musical musically musicals musician musicians musik musique muslim muslims mussolini must mustache
mustafa mustang mustard muster mustered mutant mutants mutation mutations mute muted mutiny mutter muttered
muttering mutual mutually muzzle mv mvp mw mx my myanmar myers myles myra myriad myrtle myself mysore myspace
mysteries mysterious mysteriously mystery mystic mystical myth mythical mythological mythology myths na naacp
nacional nad nadia nadu naga nagar nagasaki nagoya nah naia nail nailed nails nair nairobi naive nak nakamura
naked nam name named namely names namesake namibia naming nan nana nancy nanjing nanny nano nantes naomi nap
nape napier napkin naples napoleon napoleonic napoli nara narayan narcotics narrated narration narrative
narratives narrator narrow narrowed narrower narrowing narrowly narrows nas nasa nasal nascar nash nashville
nassau nasser nasty nat natal natalia natalie natasha nate nathan nathaniel nation national nationale
nationalism nationalist nationalists nationalities nationality nationally nationals nations nationwide native
natives nato natural naturalist naturalized naturally nature naughty nausea nautical navajo naval navarre
navarro nave navigable navigate navigation navigator navy nawab nay nazareth nazi nazis nba nbc nbl nc ncaa
ndp ne neal near nearby neared nearer nearest nearing nearly neat neatly nebraska nebula nec necessarily
necessary necessitated necessity neck necklace necks nectar ned nedra nee need needed needing needle needles
needs needy negative negatively neglect neglected negligence negotiate negotiated negotiating negotiation
negotiations negro nehru neighbor neighborhood neighborhoods neighboring neighbors neighbour neighbourhood
neighbourhoods neighbouring neighbours neil neill neither nell nellie nelly nelson nemesis neo neoclassical
neolithic neon nepal nepali nephew neptune nero nerve nerves nervous nervously nes ness nest nesting nestled
nestor nests net netball netflix netherlands nets netting network networking networks neue neumann neural
neurological neurons neuroscience neutral neutrality neutron nevada never nevertheless neville new newark
newborn newbury newcastle newcomer newcomers newell newer newest newfound newfoundland newly newman newmarket
newport news newscast newscasts newsletter newspaper newspapers newsweek newt newton newtown next nexus nfc
nfl ng ngc ngo ngos nguyen nh nhl nhs ni niagara niall nic nicaragua niccolo nice nicely niche nicholas
nicholls nichols nicholson nick nickel nickelodeon nickname nicknamed nicky nico nicola nicolas nicole niece
nielsen nietzsche nigel niger nigeria nigerian night nightclub nightfall nightingale nightly nightmare
nightmares nights nightstand nighttime nik nike nikita nikki nikola nikolai nikolay nile nils nilsson nina
nine nineteen nineteenth ninety ninja nino nintendo ninth nipple nipples nippon nirvana nissan nitrate
nitrogen nix nixon nj nk nl nm nme nmi no noah nobel nobility noble nobleman nobles nobody noctuidae nocturnal
nod nodded nodding node nodes nods noel noelle noir noise noises noisy nokia nolan nomadic nomenclature
nominal nominally nominate nominated nomination nominations nominee nominees non none nonetheless nonfiction
nonlinear nonprofit nonsense nonstop noodles noon nope nor nora nord nordic norfolk norm norma normal normally
norman normandy norms norris norse norte north northampton northamptonshire northbound northeast northeastern
northern northernmost northumberland northward northwards northwest northwestern norton norway norwegian
norwich norwood nos nose nosed noses nostalgia nostrils not notable notably notation notch note notebook noted
notes noteworthy nothin nothing notice noticeable noticeably noticed notices noticing notification notified
noting notion notions notoriety notorious notre nottingham nottinghamshire notwithstanding noun nouns nouveau
nouvelle nov nova novak novel novelist novella novels novelty november novgorod novi novice novo now nowadays
nowhere np npr nr nrhp nrl ns nsa nsw nt nu nuclear nuclei nucleus nude nudged nueva nuevo null numb number
numbered numbering numbers numerical numerous nun nunez nuns nur nuremberg nurse nursery nurses nursing nut
nutrient nutrients nutrition nutritional nuts nw nwa ny nyc nylon nyu nz oak oakland oakley oaks oasis oath
oaxaca ob obama obe obedience obesity obey obeyed obituary object objected objection objections objective
objectives objects oblast obligation obligations obligatory obliged oblique oblivion oblivious oboe obscene
obscure obscured observation observations observatory observe observed observer observers observes observing
obsessed obsession obsidian obsolete obstacle obstacles obstruction obtain obtained obtaining obvious
obviously occasion occasional occasionally occasions occult occupants occupation occupational occupations
occupied occupies occupy occupying occur occurred occurrence occurrences occurring occurs ocean oceania
oceanic oceans och ochreous oclc oct octagonal octave october octopus odd oddly odds ode oder odessa odi odin
odisha odor odyssey of off offence offences offended offender offenders offense offenses offensive offer
offered offering offerings offers office officer officers offices official officially officials offs offset
offshore offspring often og ogden oh ohio oil oilers oils ok okay okinawa oklahoma ol olaf old older oldest
oldham oldies olds ole oleg olga olive oliveira oliver olivia olivier ollie olsen olson olympia olympiad
olympian olympic olympics olympus om omaha oman omar omega ominous omitted omnibus on onboard once one ones
oneself ongoing onion onions online only ono onset onslaught onstage ontario onto onward onwards op opaque
open opened opener opening openings openly opens opera operas operate operated operates operatic operating
operation operational operations operative operatives operator operators opined opinion opinions opium
opponent opponents opportunities opportunity oppose opposed opposes opposing opposite opposition oppression
oppressive ops opt opted optic optical optics optimal optimism optimistic optimization option optional options
opus or oracle oral orange orb orbit orbital orbiting orbits orchard orchards orchestra orchestral orchestras
orchestrated orchid ordained ordeal order ordered ordering orderly orders ordinance ordinary ordination
ordnance ore oregon org organ organic organisation organisations organise organised organising organism
organisms organist organization organizational organizations organize organized organizer organizers organizes
organizing organs orgasm oricon orient oriental orientation oriented origin original originally originals
originate originated originates originating origins orioles orion orlando orleans ornamental ornaments ornate
oro orphan orphanage orphaned orphans orr orson ortega orthodox orthodoxy orthogonal ortiz orton os osaka
osborn osborne oscar oskar oslo osman ostensibly oswald ot otago other others otherwise otis ottawa otter otto
ottoman ottomans ou ought ounce our ours ourselves ousted out outbreak outburst outcome outcomes outdated
outdoor outdoors outer outfielder outfit outfits outgoing outing outlaw outlawed outlaws outlet outlets
outline outlined outlines outlook outlying outnumbered outpost output outputs outrage outraged outrageous
outreach outright outs outset outside outsider outsiders outskirts outspoken outstanding outstretched outta
outward oval oven over overall overboard overcame overcome overcoming overdose overgrown overhaul overhead
overheard overland overlap overlapping overlook overlooked overlooking overly overnight overrun overs oversaw
overseas oversee overseeing overseen oversees overshadowed oversight oversized overthrow overtime overtook
overture overturned overview overwhelmed overwhelming overwhelmingly ow owe owed owen owens owes owing owl
owls own owned owner owners ownership owning owns ox oxford oxfordshire oxidation oxide oxygen oyster oz ozone
pa pablo pac pace paced paces pacific pacing pack package packaged packages packaging packard packed packers
packet packets packing packs pact pad padded paddington paddle paddy padma padre padres pads padua pagan page
pageant pages pagoda paid paige pain pained painful painfully pains paint painted painter painters painting
paintings paints pair paired pairing pairs paisley pajamas pak pakistan pakistani pal palace palaces palais
palatinate palatine palazzo pale paler palermo palestine palestinian palestinians palette pali palm palma
palmer palms palo pam pamela pamphlet pamphlets pan panama pancakes panchayat panda pandit pandora panel
panels pang panic panicked panorama panted pantheon panther panthers panties panting pantry pants panzer paolo
papa papacy papal paper paperback papers paperwork papua papyrus par para parachute parade parades paradigm
paradise paradox paragraph paraguay parallel parallels paralympic paralympics paralysis paralyzed parameter
parameters paramilitary paramount parana paranoia paranoid paranormal parapet parasite parasites parasitic
parc parcel parcels parchment pardon parent parental parentheses parenting parents paris parish parishes
parisian park parked parker parking parkinson parks parkway parliament parliamentary parlor parma parochial
parody parole parramatta parrot parry parsons part parted partial partially participant participants
participate participated participates participating participation particle particles particular particularly
parties parting partisan partisans partition partly partner partnered partnering partners partnership
partnerships partridge parts party pas pasadena pascal pasha paso pass passage passages passageway passed
passenger passengers passes passing passion passionate passions passive passport passports password past pasta
paste pastor pastoral pastry pasture pastures pat patch patches patel patent patented patents paternal
paterson path pathetic pathogen pathology paths pathway pathways patience patient patiently patients patio
patna patriarch patrice patricia patrick patriot patriotic patriots patrol patrolling patrols patron patronage
patrons patsy patted pattern patterned patterns patterson patti patting patton patty pau paul paula pauline
paulo pause paused pauses pausing paved pavel pavement pavilion paving paw pawn paws paxton pay paying payload
payment payments payne payroll pays payton paz pba pbs pc pcs pd pdf pe pea peabody peace peaceful peacefully
peacekeeping peach peacock peak peaked peaking peaks peanut peanuts pear pearce pearl pearls pearson peas
peasant peasants peat pebbles peck peculiar pedal pedersen pedestal pedestrian pedestrians pediatric pedro pee
peek peeked peeking peel peeled peeling peer peerage peered peering peers peg pegasus peggy pei peking
pembroke pen pena penal penalties penalty penang pencil pendant pending pendleton pendulum penelope penetrate
penetrated penetrating penetration peng penguin penguins peninsula peninsular penis penitentiary penn pennant
penned pennsylvania penny pens pensacola pension pensions pentagon penthouse penultimate people peoples pep
pepper peppers pepsi peptide per perceive perceived percent percentage perception perceptions perch perched
percival percussion percy pere pereira perennial perez perfect perfection perfectly perform performance
performances performed performer performers performing performs perfume perhaps perimeter period periodic
periodical periodically periodicals periods peripheral periphery perished perkins permanent permanently
permission permit permits permitted permitting perpendicular perpetrators perpetual perrin perry persecuted
persecution persia persian persians persist persisted persistence persistent person persona personal
personalities personality personally personnel persons perspective perspectives persuade persuaded persuasion
pertaining perth peru peruvian peshawar pest pet petals pete peter peterborough peters petersburg petersen
peterson petit petite petition petitioned petitions petra petrol petroleum pets petty peugeot pew peyton pg
pga ph phantom pharaoh pharmaceutical pharmaceuticals pharmacy phase phased phases phd phelps phenomena
phenomenon phi phil philadelphia philanthropic philanthropist philanthropy philharmonic philip philipp
philippe philippine philippines philips phillies phillip phillips philology philosopher philosophers
philosophical philosophy phoebe phoenix phone phones phonetic phosphate phosphorus photo photograph
photographed photographer photographers photographic photographs photography photon photos php phrase phrases
phyllis phylogenetic physical physically physician physicians physicist physics physiological physiology pi
pia pianist piano pianos piazza pic picasso piccolo pick picked pickering picket picking picks pickup picnic
pictorial picture pictured pictures picturesque pie piece pieces piedmont pier pierce pierced piercing pierre
piers pieter pietro pig pigeon pigeons pigment pigs pike pilasters pile piled piles pilgrim pilgrimage
pilgrims pill pillar pillars pillow pillows pills pilot piloted pilots pin pinch pinched pine pines ping pink
pinnacle pinned pinning pins pinto pinyin pioneer pioneered pioneering pioneers pious pip pipe pipeline piper
pipes piracy pirate pirates pisa piss pissed pistol pistols piston pistons pit pitch pitched pitcher pitchers
pitches pitchfork pitching pits pitt pitted pittsburgh pity pius pivotal pixel pixels pizza pl place placed
placement places placing plague plagued plaid plain plainly plains plaintiff plaintiffs plan planck plane
planes planet planetary planets plank planned planner planners planning plans plant plantation plantations
planted planting plants plaque plaques plasma plaster plastered plastic plastics plata plate plateau plates
platform platforms platinum plato platoon platt plausible play playable playback playboy played player players
playful playfully playground playhouse playing playoff playoffs plays playstation playwright plaza plc plea
plead pleaded pleading pleas pleasant pleasantly please pleased pleasing pleasure pleasures pledge pledged
pleistocene plenty plight plot plots plotted plotting plucked plug plum plumage plumbing plume plump plunge
plunged plunging plural plurality plus plush pluto plymouth pm pmid pneumonia po pocket pockets pod podcast
podium pods poe poem poems poet poetic poetry poets point pointe pointed pointedly pointer pointing pointless
points poised poison poisoned poisoning poisonous poke poked pokemon poker poking pol poland polar pole poles
polgara police policeman policemen policies policing policy polish polished polite politely political
politically politician politicians politics polk polka poll pollard polled pollen polling pollock polls
pollution polly polo poly polymer polymers polynomial polynomials polytechnic pomerania pomeranian ponce pond
ponder pondered ponds pont pontiac pontifical pony ponytail pool poole pools poor poorer poorly pop popcorn
pope popped popping poppy pops populace popular popularity popularized popularly populated population
populations populous por porcelain porch pork porn pornographic pornography porsche port portable portage
portal portals porte ported porter portfolio portico portion portions portland porto portrait portraits
portray portrayal portrayed portraying portrays ports portsmouth portugal portuguese pose posed poses posing
position positioned positioning positions positive positively posse possess possessed possesses possessing
possession possessions possessive possibilities possibility possible possibly post postage postal postdoctoral
posted poster posterior posters postgraduate posthumous posthumously posting postmaster postponed posts
postseason posture postwar pot potassium potato potatoes potent potential potentially potion potomac pots
potsdam potter pottery pouch poultry pound pounded pounder pounding pounds pour poured pouring poverty pow
powder powell power powered powerful powerhouse powerless powerplant powers poznan pp pr practical practically
practice practiced practices practicing practised practitioner practitioners pradesh prague prairie praise
praised praises praising prakash prank prasad pratt pray prayed prayer prayers praying prc pre preach preached
preacher preaching precautions preceded precedence precedent preceding precinct precious precipitation precise
precisely precision precursor predator predators predatory predecessor predecessors predict predictable
predicted predicting prediction predictions predominant predominantly preface prefect prefecture prefer
preference preferences preferred preferring prefers prefix pregnancy pregnant prehistoric prejudice prelate
preliminary prelude prem premature prematurely premier premiere premiered premiership premio premise premises
premium prentice preoccupied prep preparation preparations preparatory prepare prepared prepares preparing
prequel presbyterian preschool prescott prescribed prescription preseason presence present presentation
presentations presented presenter presenters presenting presently presents preservation preserve preserved
preserves preserving presided presidency president presidential presidents presiding presley press pressed
presses pressing pressure pressured pressures prestige prestigious preston presumably presumed pretend
pretended pretending pretoria pretty prevailed prevailing prevalence prevalent prevent prevented preventing
prevention prevents preview previous previously prey pri price priced prices pricing prick pride priest
priestess priesthood priests prima primal primaries primarily primary primate prime primera primetime
primitive prince princely princes princess princeton principal principality principally principals principle
principles print printed printer printers printing prints prior priorities priority priory priscilla prism
prison prisoner prisoners prisons pristine privacy private privateer privately privatization privilege
privileged privileges privy prix prize prized prizes pro probability probable probably probation probe probing
problem problematic problems procedural procedure procedures proceed proceeded proceeding proceedings proceeds
process processed processes processing procession processor processors proclaimed proclamation proctor
procurement prodigy produce produced producer producers produces producing product production productions
productive productivity products prof profession professional professionally professionals professions
professor professors professorship proficiency proficient profile profiles profit profitable profits profound
profoundly program programme programmed programmer programmers programmes programming programs progress
progressed progresses progressing progression progressive progressively prohibit prohibited prohibiting
prohibition prohibits project projected projectile projecting projection projections projective projects
proliferation prolific prologue prolonged prom promenade prominence prominent prominently promise promised
promises promising promo promote promoted promoter promoters promotes promoting promotion promotional
promotions prompt prompted prompting promptly prone pronounced pronouns pronunciation proof prop propaganda
propagation propelled propeller propellers proper properly properties property prophecy prophet prophets
proponent proponents proportion proportional proportions proposal proposals propose proposed proposes
proposing proposition propped proprietary proprietor props propulsion prose prosecuted prosecution prosecutor
prosecutors prospect prospective prospects prosperity prosperous prostate prostitute prostitutes prostitution
protagonist protagonists protect protected protecting protection protections protective protector protectorate
protects protege protein proteins protest protestant protestants protested protesters protesting protests
proto protocol protocols proton prototype prototypes protruding proud proudly prove proved proven provence
proves provide provided providence provider providers provides providing province provinces provincial proving
provision provisional provisions provocative provoke provoked provost prowess proximity proxy prussia prussian
pry ps psalm psalms pseudo pseudonym psi psyche psychedelic psychiatric psychiatrist psychiatry psychic psycho
psychological psychologist psychologists psychology psychotic pt ptolemy pts pu pub public publication
publications publicity publicized publicly publish published publisher publishers publishes publishing pubs
puck pudding puddle puebla pueblo puerto puff puget pulitzer pull pulled pulling pulls pulmonary pulp pulpit
pulse pulsed pulses pulsing pump pumped pumping pumpkin pumps pun punch punched punches punching pune punish
punished punishment punishments punjab punjabi punk punt punta pup pupil pupils puppet puppets puppy purcell
purchase purchased purchases purchasing purdue pure purely purge purification purity purple purported purpose
purposely purposes purse pursed pursuant pursue pursued pursuing pursuit pursuits push pushed pushes pushing
pussy put putin putnam puts putting puzzle puzzled puzzles pv pyramid pyrenees python qaeda qatar qb qc qi qin
qing qu quad quadrant quake quaker quakers qualification qualifications qualified qualifier qualifiers qualify
qualifying qualities quality quan quantitative quantities quantity quantum quarrel quarries quarry quarter
quarterback quarterfinal quarterfinals quarterly quartermaster quarters quartet quartz quasi quay que quebec
queen queens queensland queer quentin query quest question questionable questioned questioning questions queue
quezon qui quick quicker quickly quiet quieter quietly quilt quincy quinlan quinn quintet quit quite quiver
quivering quiz quo quota quote quoted quotes quoting qur quran ra raaf rabbi rabbis rabbit rabbits race
racecourse raced racehorse racer racers races racetrack raceway rachel racial racing racism racist rack racks
radar radcliffe radha radial radiant radiated radiating radiation radical radically radicals radio radioactive
radios radius rae raf rafael rafe raft rag rage raged ragged raging rags rahman rai raid raided raider raiders
raiding raids rail railing railroad railroads rails railway railways rain rainbow rained rainer rainfall
rainforest raining rains rainy raion raise raised raises raising raj raja rajasthan raju rake raked raleigh
rallied rallies rally ralph ram rama ramirez rammed ramon ramos ramp rampage rampant ramps rams ramsay ramsey
ran rana ranch rancho rand randall randolph random randomly randy rang range ranged ranger rangers ranges
ranging rani rank ranked rankin ranking rankings ranks rann ransom rao raoul rap rape raped raphael rapid
rapidly rapids rapper rappers rare rarely ras rash rashid rasped rat rate rated rates rather ratification
ratified rating ratings ratio rational rations ratios rats rattle rattled rattling raul ravaged rave raven
ravens ravi ravine raw ray raymond rayon rays razor rb rbi rbis rc rca rd re reach reached reacher reaches
reaching react reacted reacting reaction reactions reactivated reactive reactor reactors reacts read reader
readers readily readiness reading readings reads ready reagan real realise realised realises realising realism
realistic realities reality realization realize realized realizes realizing really realm realms reaper reapers
reappeared rear reared rearview reason reasonable reasonably reasoned reasoning reasons reassigned reassure
reassured reassuring rebecca rebel rebelled rebellion rebellious rebels rebirth reborn rebound rebounds
rebranded rebuild rebuilding rebuilt rec recall recalled recalling recalls recapture recaptured receipt
receipts receive received receiver receivers receives receiving recent recently reception receptionist
receptions receptor receptors recess recession recipe recipes recipient recipients reciprocal recital recited
reckless reckon reclaim reclaimed reclamation recognise recognised recognition recognizable recognize
recognized recognizes recognizing recoil recommend recommendation recommendations recommended recommends
reconcile reconciled reconciliation reconnaissance reconstructed reconstruction record recorded recorder
recording recordings records recounted recounts recover recovered recovering recovery recreated recreation
recreational recruit recruited recruiting recruitment recruits rectangular rector rectory recurring recycled
recycling red redding reddish reddy redemption redesign redesignated redesigned redeveloped redevelopment
redhead rediscovered redistribution reds redskins reduce reduced reduces reducing reduction reductions
redundant redwood reece reed reef reefs reel reelected reelection reeling rees reese reeve reeves ref refer
referee referees reference referenced references referencing referendum referred referring refers refined
refinery refining refit reflect reflected reflecting reflection reflections reflective reflects reflex reform
reformation reformed reformer reforming reforms refrain refreshing refrigerator refueling refuge refugee
refugees refurbished refurbishment refusal refuse refused refuses refusing reg regain regained regaining regal
regan regard regarded regarding regardless regards regatta regency regeneration regent regents reggae reggie
regime regiment regimental regiments regimes regina reginald region regional regions regis register registered
registering registers registrar registration registry regression regret regrets regretted regular regularly
regulars regulate regulated regulates regulating regulation regulations regulator regulators regulatory rehab
rehabilitation rehearsal rehearsals rei reich reid reign reigned reigning reigns reilly rein reindeer
reinforce reinforced reinforcement reinforcements reins reinstated reintroduced reissue reissued reiterated
reject rejected rejecting rejection rejects rejoin rejoined relate related relates relating relation
relational relations relationship relationships relative relatively relatives relativity relaunched relax
relaxation relaxed relaxing relay release released releases releasing relegated relegation relentless
relevance relevant reliability reliable reliance relic relics relied relief reliefs relies relieve relieved
religion religions religious relinquished relocate relocated relocating relocation reluctance reluctant
reluctantly rely relying remade remain remainder remained remaining remains remake remark remarkable
remarkably remarked remarks remarried remastered rematch remedy remember remembered remembering remembers
remembrance remind reminded reminder reminding reminds remington reminiscent remix remixed remixes remnant
remnants remodeled remorse remote remotely removal remove removed removes removing remy ren renaissance renal
renamed renaming renault render rendered rendering rendezvous rendition rene renee renegade renew renewable
renewal renewed reno renovated renovation renovations renowned rent rental rented rents renumbered reopened
reorganisation reorganization reorganized rep repair repaired repairing repairs repay repeal repealed repeat
repeated repeatedly repeating repeats repertoire repertory repetition repetitive replace replaced replacement
replacements replaces replacing replay replica replicate replication replied replies reply report reported
reportedly reporter reporters reporting reports repository represent representation representations
representative representatives represented representing represents repression reprint reprinted reprise
reprised reproduce reproduced reproduction reproductive reptiles republic republican republicans republics
republished repulsed reputation reputed request requested requesting requests requiem require required
requirement requirements requires requiring res rescue rescued rescues rescuing research researched researcher
researchers researches researching resemblance resemble resembled resembles resembling resented resentment
reservation reservations reserve reserved reserves reservoir reservoirs reset reside resided residence
residences residency resident residential residents resides residing residual residue residues resign
resignation resigned resigning resin resist resistance resistant resisted resisting resolution resolutions
resolve resolved resolving resonance resort resorts resource resources respect respectable respected
respectful respecting respective respectively respects respiratory respond responded respondents responding
responds response responses responsibilities responsibility responsible responsive rest restart restarted
restaurant restaurants rested resting restless restoration restore restored restoring restrain restrained
restraining restraint restraints restrict restricted restricting restriction restrictions restrictive restroom
restructuring rests result resultant resulted resulting results resume resumed resurgence resurrected
resurrection retail retailer retailers retain retained retaining retains retaliation retention retire retired
retirement retiring retorted retracted retreat retreated retreating retribution retrieval retrieve retrieved
retro retrospective return returned returning returns reuben reunification reunion reunite reunited reused
reuters rev reveal revealed revealing reveals revelation revelations revenge revenue revenues revered reverend
reversal reverse reversed reverted review reviewed reviewer reviewers reviewing reviews revised revision
revisions revisited revival revive revived revoked revolt revolution revolutionaries revolutionary revolutions
revolver revolves revolving revue reward rewarded rewards reworked rex rey reyes reykjavik reynolds reza rf
rfc rhapsody rhea rhetoric rhine rhineland rhino rhode rhodes rhodesia rhone rhyme rhymes rhys rhythm rhythmic
rhythms ri riaa rib ribbon ribbons ribs ric rica rican ricardo rice rich richard richards richardson richer
riches richest richie richly richmond richter rick ricky rico rid ridden riddle ride rider riders rides ridge
ridges ridiculous riding ridley riff rifle rifles rift rig riga rigged right righteous rightful rights rigid
rigorous rihanna riley rim ring ringing ringo rings rink rio rios riot riots rip ripe ripley ripped ripping
ripple rippled rise risen rises rising risk risked risking risks risky rita ritchie rite rites ritter ritual
rituals rival rivalry rivals river rivera rivers riverside rm rms rn rna ro roach road roads roadside roadway
roam roaming roanoke roar roared roaring roast roasted rob robb robbed robber robbers robbery robbie robbins
robe robert roberta roberto roberts robertson robes robin robinson robot robotic robotics robots robson robust
robyn roc rocco rochdale roche rochelle rochester rock rocked rockefeller rocker rocket rockets rockies
rocking rocks rockwell rocky rod rode rodents rodeo roderick rodgers rodney rodrigo rodriguez rods roe roger
rogers rogue rohan roi roland role roles rolf roll rolled roller rolling rollins rolls rom roma roman romance
romanesque romani romania romanian romanized romano romans romantic rome romeo romero romney ron ronald ronan
ronin ronnie roof roofed roofs rooftop rook rookie room roommate rooms rooney roosevelt rooster root rooted
roots rope ropes rory rosa rosalie rosario rosary rose rosemary rosen rosenberg rosenthal roses rosewood rosie
ross rossi roster rosy rot rotary rotate rotated rotating rotation rotational roth rotherham rothschild rotor
rotten rotterdam rotting rouen rouge rough roughly round roundabout rounded rounding rounds rourke rouse
rousseau route routed routes routine routinely routines routing routledge rover rovers row rowan rowe rower
rowing rowland rows roxy roy royal royale royalist royals royalties royalty royce rpg rpm rq rr rs rt rte ru
rub rubbed rubber rubbing rubbish rubble ruben rubin rubs ruby rudd rudder rude rudolf rudolph rudy rue rufus
rug rugby rugged ruin ruined ruining ruins ruiz rule ruled ruler rulers rules ruling rum rumble rumbled
rumbling rumor rumored rumors rumours run runaway rune runes runner runners running runoff runs runway runways
rupert rural rus ruse rush rushed rushes rushing russ russell russia russian russians russo rust rustic
rustling rusty rutgers ruth rutherford ruthless rutland rv rwanda ry ryan ryder rye ryu sa sabah sabbath saber
sabha sabine sable sabotage sabre sabres sabrina sac sachs sack sacked sacks sacrament sacramento sacred
sacrifice sacrificed sacrifices sad saddam saddle sadie sadler sadly sadness saetan safari safe safeguard
safely safer safety saga sage sagged sahara saharan sahib sai said saigon sail sailed sailing sailor sailors
sails saint sainte saints sake sakura sal salad salamanca salaries salary salazar sale salem sales salesman
salford salim saline salisbury saliva salle sally salman salmon salon saloon salsa salt salts salty salute
salvador salvage salvation salvatore salzburg sam samantha samba same sami sammy samoa sample sampled samples
sampling sampson samson samsung samuel samurai san sanchez sanctioned sanctions sanctuary sand sandals sanders
sandra sands sandstone sandwich sandwiches sandy sane sanford sang sanitary sanitation sanity sanjay sank sans
sanskrit sant santa santana santiago santo santos sao sap sapphire sar sara sarah sarajevo saratoga sarawak
sarcasm sarcastic sarcastically sardinia sargent sas sash sasha saskatchewan saskatoon sat satan satellite
satellites satin satire satirical satisfaction satisfactory satisfied satisfy satisfying sato saturated
saturday saturdays saturn sauce saudi saul saunders sausage sava savage savanna savannah save saved saves
saving savings savior savoy saw sawmill sawyer sax saxe saxon saxons saxony saxophone saxophonist say saying
says sb sbs sc scala scale scaled scales scaling scalp scan scandal scandals scandinavia scandinavian scanned
scanner scanning scans scar scarborough scarce scarcely scare scared scares scarf scarlet scarlett scarred
scars scary scattered scattering scenario scenarios scene scenery scenes scenic scent scented scents schedule
scheduled schedules scheduling scheme schemes schizophrenia schleswig schmidt schneider scholar scholarly
scholars scholarship scholarships scholastic school schoolhouse schooling schools schooner schubert schultz
schumacher schumann schuster schwartz schwarz sci science sciences scientific scientist scientists scientology
scissors scoffed scoop scooped scooted scope score scored scorer scores scoring scorpion scotch scotia
scotland scots scott scottish scout scouting scouts scowl scowled scramble scrambled scrambling scranton scrap
scrape scraped scraping scrapped scratch scratched scratches scratching scream screamed screaming screams
screen screened screening screenings screenplay screens screenwriter screw screwed screwing scribe script
scripted scripts scripture scriptures scroll scrolling scrolls scrub scrubbed scrutiny scuba scully sculpted
sculptor sculptors sculpture sculptures sd se sea seafood seahawks seal sealed sealing seals seam seaman
seamen seamus sean search searched searches searching searing sears seas seaside season seasonal seasoned
seasons seat seated seater seating seats seattle sebastian sebastien sec secession secluded second secondary
secondly seconds secrecy secret secretariat secretaries secretary secretive secretly secrets sect section
sectional sections sector sectors secular secure secured securely securing securities security sedan sediment
sedimentary sediments seduce seduction seductive see seed seeded seeds seeing seek seeker seekers seeking
seeks seem seemed seeming seemingly seems seen sees sega segment segments segregated segregation segunda seine
seismic seize seized seizing seizure seizures selangor seldom select selected selecting selection selections
selective selector selects selena self selfish sell seller sellers selling sells selma semantic semantics
semester semi semiconductor semifinal semifinals seminal seminar seminars seminary seminole semitic sen senate
senator senators send sending sends seneca senegal senior seniors sensation sensations sense sensed senses
sensible sensing sensitive sensitivity sensor sensors sensory sensual sent sentai sentence sentenced sentences
sentencing sentiment sentimental sentiments sentinel seo seoul sep separate separated separately separates
separating separation sept september sequel sequels sequence sequences sequencing sequential ser sera serb
serbia serbian serbs serena serene serge sergeant sergei sergey sergio serial serialized serials serie series
serious seriously seriousness sermon sermons serpent serra serum servant servants serve served server servers
serves service serviced servicemen services servicing serving sesame session sessions set seth seton sets
setting settings settle settled settlement settlements settler settlers settles settling setup seven sevens
seventeen seventeenth seventh seventies seventy several severe severed severely severity severn sevilla
seville sewage sewer sewing sex sexes sexual sexuality sexually sexy seychelles seymour sf sg sgt sh sha shack
shade shaded shades shadow shadowed shadows shadowy shady shaft shafts shaggy shah shake shaken shakes
shakespeare shaking shaky shale shall shallow sham shaman shame shamrock shan shandong shane shang shanghai
shankar shannon shape shaped shapes shaping shapiro shards share shared shareholder shareholders shares sharif
sharing shark sharks sharma sharon sharp sharpe sharpened sharply shatter shattered shattering shaun shave
shaved shaw shawn shay she shea shear sheath shed sheds sheen sheep sheer sheet sheets sheffield sheikh sheila
shelby sheldon shelf shell shelley shells shelly shelter sheltered shelters shelton shelves shen sheng
shenzhen shepard shepherd sheppard sheridan sheriff sherlock sherman sherry sherwood shetland shi shia shield
shielded shielding shields shift shifted shifter shifters shifting shifts shillings shimmering shin shine
shining shiny ship shipbuilding shipment shipments shipped shipping ships shipyard shire shirley shirt shirts
shit shitty shiva shiver shivered shivering shivers sho shock shocked shocking shocks shoe shoes shone shook
shoot shooter shooters shooting shootout shoots shop shopping shops shore shoreline shores short shortage
shortages shortened shorter shortest shortlisted shortly shorts shortstop shot shotgun shots should shoulder
shouldered shoulders shouldn shout shouted shouting shouts shove shoved shovel shoving show showcase showcased
showcases showcasing showdown showed shower showered showers showing shown shows showtime shredded shreveport
shrewsbury shri shriek shrieked shrill shrimp shrine shrines shrink shrinking shropshire shrub shrubs shrug
shrugged shrugs shu shudder shuddered shuddering shuffle shuffled shuffling shut shutter shutting shuttle shy
si siam siberia siberian sibling siblings sic sichuan sicilian sicily sick sickness sid side sided sidekick
sides sidewalk sidewalks sideways siding sidney siege siegel siegfried siemens siena sienna sierra sigh sighed
sighing sighs sight sighted sighting sights sigismund sigma sign signage signal signaled signaling signalling
signals signature signatures signed significance significant significantly signifies signing signs sikh sikhs
silas silence silenced silent silently silesia silesian silhouette silicon silk silky silly silva silver
silvery silvia silvio sim sima simeon simi similar similarities similarity similarly simmons simon simone
simple simpler simplest simplicity simplified simply simpson simpsons sims simulate simulated simulation
simulations simulator simulcast simultaneous simultaneously sin sinai sinatra since sincere sincerely
sincerity sinclair sindh sing singapore singer singers singh singing single singled singles singleton sings
singular sinister sink sinking sinks sinn sino sins sioux sip sipped sipping sir sire sired siren sirens
sirius sis sister sisters sit sitcom site sited sites sits sitting situ situated situation situations six
sixteen sixteenth sixth sixties sixty sizable size sized sizes sk ska skate skater skaters skating skeletal
skeleton skeletons skeptical skepticism sketch sketches ski skier skies skiing skill skilled skills skimmed
skin skinned skinner skinny skins skip skipped skipper skipping skirmish skirt skirts skopje skull skulls sky
skye skyla skylar skyline skyscraper sl slab slabs slack slacks slade slain slalom slam slammed slamming slams
slang slant slap slapped slapping slash slashed slate slated slater slaughter slaughtered slave slavery slaves
slavic slayer sleek sleep sleeper sleeping sleeps sleepy sleeve sleeves slender slept slice sliced slices
slicing slick slid slide slides sliding slight slightest slightly slim sling slip slipped slippery slipping
slips slit slits sloan sloane slogan sloop slope slopes sloping sloppy slot slots slovak slovakia slovene
slovenia slovenian slow slowed slower slowing slowly slug slump slumped slung sly sm smack smackdown smacked
small smaller smallest smallpox smart smarter smartphone smash smashed smashing smashwords smeared smell
smelled smelling smells smile smiled smiles smiley smiling smirk smirked smith smithsonian smoke smoked
smoking smoky smooth smoothed smoothing smoothly sms smug smuggling smyth snack snacks snail snails snake
snakes snap snapped snapping snaps snarl snarled snatch snatched sneak sneakers sneaking sneered sniff sniffed
sniffing sniper snooker snoop snort snorted snout snow snowfall snowy snuck snuggled snyder so soaked soaking
soap soared soaring sob sobbed sobbing sober sobs soc soccer social socialism socialist socialists socially
societal societe societies society socio sociological sociologist sociology sock socket sockets socks socrates
soda sodium sofa sofia sofie soft softball softened softer softly softness software soho soil soils sol solar
sold soldier soldiers sole solely solemn solemnly solicitor solid solidarity solids solitary solitude solo
soloist soloists solomon solos soluble solution solutions solve solved solvent solving somali somalia somber
some somebody someday somehow someone someplace somerset somerville somethin something sometime sometimes
somewhat somewhere somme son sonar sonata song songs songwriter songwriters songwriting sonia sonic sonny
sonora sons sony sonya soo soon sooner soothe soothing sophia sophie sophisticated sophomore soprano sorbonne
sorcerer sore sorority sorrow sorry sort sorted sorting sorts soto sought soul souls sound sounded sounding
sounds soundtrack soundtracks soup sour source sourced sources sous sousa south southampton southbound
southeast southeastern southend southern southernmost southland southport southward southwest southwestern
souza sovereign sovereignty soviet soviets sox soy soyuz sp spa space spacecraft spaced spaces spaceship
spacious spade spaghetti spain span spaniards spanish spanned spanning spans spare spared sparhawk spark
sparked sparkle sparkled sparkling sparks sparrow sparse sparsely sparta spartak spartan spartans spat spatial
spawn spawned spawning spd speak speaker speakers speaking speaks spear spearheaded spears spec special
specialised specialising specialist specialists specialization specialized specializes specializing specially
specials specialty species specific specifically specification specifications specified specifies specify
specimen specimens spectacle spectacular spectator spectators spectra spectral spectroscopy spectrum
speculated speculation speculative sped speech speeches speechless speed speeding speeds speedway speedy spell
spelled spelling spells spence spencer spend spending spends spent sperm sphere spheres spherical sphinx spice
spices spicy spider spiders spielberg spies spike spiked spikes spill spilled spilling spin spinal spine
spines spinning spins spiral spire spirit spirited spirits spiritual spirituality spit spite spitfire spitting
splash splashed splendid splinter split splits splitting spoil spoiled spokane spoke spoken spokesman
spokesperson sponge sponsor sponsored sponsoring sponsors sponsorship spontaneous spontaneously spoon sporadic
spores sport sporting sports sportsman spot spotlight spots spotted spotting spouse spp sprang sprawled
sprawling spray sprayed spraying spread spreading spreads spring springer springfield springs springsteen
sprint sprinted sprinter spruce sprung spun spur spurred spurs spy spying sq sql squad squadron squadrons
squads square squared squares squash squat squeak squealed squeeze squeezed squeezing squid squinted squinting
squire squirrel squirrels sr sri ss ssr st stab stabbed stabbing stability stabilization stabilize stabilized
stable stables stacey stack stacked stacks stacy stade stadion stadium stadiums staff staffed stafford
staffordshire stage stagecoach staged stages staggered staggering staging stain stained stainless stains stair
staircase stairs stairway stairwell stake stakeholders stakes stale stalin stalk stalked stalker stalking
stalks stall stalled stallion stalls stamford stammered stamp stamped stampede stamps stan stance stand
standalone standard standardization standardized standards standing standings stands stanford stanisław
stanley stanton stanza staple staples star starboard starbucks stare stared stares staring stark starr starred
starring stars start started starter starters starting startled startling starts startup starvation starved
starving stat state stated statehood statement statements staten states statesman statewide static stating
station stationary stationed stations statistical statistics stats statue statues stature status statute
statutes statutory staunch stay stayed staying stays ste steadily steady steak steal stealing steals stealth
steam steamboat steamed steamer steaming steamship steel steele steelers steep steer steered steering stefan
stefano stein steiner stella stellar stem stemmed stemming stems stench step stepfather stephan stephane
stephanie stephen stephens stephenson stepmother steppe stepped stepping steps stereo stereotypes sterile
sterling stern steve steven stevens stevenson stevie stew steward stewart stick sticking sticks sticky stiff
stiffened stiffly stifled stigma stil still stilled stillness stills stimulate stimulated stimulating
stimulation stimuli stimulus sting stinging stink stint stipulated stir stirling stirred stirring stitch
stitches stock stocked stockholm stockings stockport stocks stockton stoke stokes stole stolen stomach stomped
stone stones stony stood stool stop stopped stopping stops storage store stored stores storey stories storing
storm stormed storms stormy story storyline storylines storytelling stout stove straight straighten
straightened straightening straightforward strain strained straining strains strait straits strand stranded
strands strange strangely stranger strangers strangled strap strapped straps strasbourg strata strategic
strategically strategies strategy stratford strauss straw strawberry stray streak streaked streaks stream
streamed streaming streamlined streams street streetcar streets strength strengthen strengthened strengthening
strengths stress stressed stresses stretch stretched stretches stretching strewn stricken strict strictly
stride strides strife strike strikeouts striker strikers strikes striking string strings strip stripe striped
stripes stripped stripping strips strive strode stroke stroked strokes stroking stroll strolled strong
stronger strongest stronghold strongly struck structural structurally structure structured structures struggle
struggled struggles struggling strung stryker sts stu stuart stubble stubborn stucco stuck stud student
students studied studies studio studios study studying stuff stuffed stuffing stumble stumbled stumbling stump
stung stunned stunning stunt stunts stupid stupidity sturdy stuttgart style styled styles styling stylistic
stylized styx su suarez sub subcommittee subconscious subcontinent subdistrict subdivided subdivision
subdivisions subdued subfamily subgenus subgroup subject subjected subjective subjects sublime submarine
submarines submerged submission submissions submit submitted subordinate subscribers subscription subsequent
subsequently subset subsided subsidiaries subsidiary subsidies subsidy subsistence subsp subspecies substance
substances substantial substantially substantive substitute substituted substitutes substitution substrate
substrates subterranean subtle subtly subtropical subunit suburb suburban suburbs subway succeed succeeded
succeeding succeeds success successes successful successfully succession successive successively successor
successors succumbed such suck sucked sucker sucking sucks sud sudan sudanese sudbury sudden suddenly sue sued
suez suffer suffered suffering suffers sufficient sufficiently suffix suffolk suffrage sufi sugar sugarcane
suggest suggested suggesting suggestion suggestions suggests sui suicidal suicide suit suitable suitcase suite
suited suites suits sul sulawesi sulfate sulfur sullivan sultan sultanate sum sumatra summarized summary
summer summers summit summon summoned summons sumner sumo sums sun sundance sunday sundays sunderland sung
sunglasses sunk sunken sunlight sunni sunny sunrise suns sunset sunshine super superb superfamily superficial
superhero superhuman superintendent superior superiority superiors superliga superman supermarket supermarkets
supernatural superseded superstar superstructure supervise supervised supervising supervision supervisor
supervisors supervisory supper supplement supplemental supplementary supplemented supplements supplied
supplier suppliers supplies supply supplying support supported supporter supporters supporting supportive
supports suppose supposed supposedly suppress suppressed suppression supremacy supreme sur sure surely surf
surface surfaced surfaces surfer surfing surge surged surgeon surgeons surgery surgical suriname surname
surpassed surpassing surplus surprise surprised surprises surprising surprisingly surreal surrender
surrendered surrey surround surrounded surrounding surroundings surrounds surveillance survey surveyed
surveying surveyor surveys survival survive survived survives surviving survivor survivors susan susanna
susannah susceptible susie suspect suspected suspects suspend suspended suspense suspension suspicion
suspicions suspicious suspiciously susquehanna sussex sustain sustainability sustainable sustained sustaining
sutherland sutra sutton suv suzanne suzuki suzy sv sven sw swallow swallowed swallowing swallows swam swami
swamp swamps swan swans swansea swap swapped swarm swat sway swayed swaying swear swearing sweat sweater
sweating sweatshirt sweaty sweden swedish sweeney sweep sweeping sweeps sweet sweetheart sweetie sweetly
sweetness sweets swell swelled swelling swept swift swiftly swim swimmer swimmers swimming swindon swing
swinging swings swiped swirl swirled swirling swiss switch switched switches switching switzerland swollen
sword swords swore sworn swung sy sydney syed sykes syllable syllables sylvester sylvia sylvie symbol symbolic
symbolism symbols symmetric symmetrical symmetry sympathetic sympathy symphonic symphonies symphony symposium
symptoms syn synagogue sync synchronized syndicate syndicated syndication syndrome synod synonym synonymous
syntax synth synthesis synthesized synthesizer synthesizers synthetic syracuse syria syriac syrian syrup
system systematic systematically systemic systems ta tab tabitha table tables tablet tablets tabloid taboo
tack tackle tackled tackles tacoma tactic tactical tactics tad tae taekwondo taft tag tagged tags tai tail
tailed tailor tailored tails tainted taipei taiwan taiwanese tajikistan tak takahashi take taken takeoff
takeover takes taking tal talbot tale talent talented talents tales taliban talk talked talking talks tall
taller tallest tallinn tally talmud talon taluk taluka tam tamara tame tamil tammy tampa tan tanaka tandem
tang tangent tangible tangle tangled tango tank tanker tanks tanned tanner tanya tanzania tao tap tape taped
tapes tapestry tapped tapping taps tar tara target targeted targeting targets tariff tariffs tarzan tasha task
tasked tasks tasmania tasmanian taste tasted tastes tasting tata tatar tate tatiana tattoo tattooed tattoos
tatum tau taught taunting taunton taut tavern tavi tax taxa taxation taxes taxi taxis taxon taxonomic taxonomy
taxpayer taxpayers tay taylor tb tbilisi tbs tc tchaikovsky td te tea teach teacher teachers teaches teaching
teachings team teamed teaming teammate teammates teams tear tearing tears tease teased teaser teasing teatro
tech technical technically technician technicians technique techniques techno technological technologies
technology ted teddy tee teen teenage teenager teenagers teens teeth tehran tehsil tel telangana telecast
telecom telecommunication telecommunications telegram telegraph telenovela telephone telescope telescopes
televised television tell teller telling tells telugu temeraire temper temperament temperance temperate
temperature temperatures tempered tempest templar template temple temples tempo temporal temporarily temporary
temps temptation tempted tempting ten tenant tenants tend tended tendencies tendency tender tenderly
tenderness tending tends tennessee tennis tenor tens tense tensed tension tensions tensor tent tentacles
tentative tentatively tenth tents tenure tequila ter terence teresa term termed terminal terminals terminate
terminated terminates terminating termination terminology terminus terms terra terrace terraces terrain terre
terrestrial terri terrible terribly terrific terrified terrifying territorial territories territory terror
terrorism terrorist terrorists terry tertiary tesla tess tessa test testament tested testified testify
testimony testing testosterone tests tex texans texas text textbook textbooks texted textile textiles texts
textual texture textures th tha thai thailand thames than thank thanked thankful thankfully thanking thanks
thanksgiving that thatcher thayer the theater theaters theatre theatres theatrical thee theft their theirs
them thematic theme themed themes themselves then thence theo theodor theodore theologian theologians
theological theology theorem theoretical theoretically theories theorist theorists theory therapeutic
therapist therapy there thereafter thereby therefore thereof theresa therese thermal these thesis thessaloniki
theta they thick thicker thickness thief thierry thieves thigh thighs thin thing things think thinkers
thinking thinks thinner third thirds thirst thirsty thirteen thirteenth thirties thirty this thistle tho thom
thomas thompson thomson thong thor thorn thorne thorns thornton thorough thoroughbred thoroughly thorpe those
thou though thought thoughtful thoughtfully thoughts thousand thousands thrash thread threaded threads threat
threaten threatened threatening threatens threats three threshold threw thrill thrilled thriller thrilling
thrive thriving throat throbbed throbbing throne throttle through throughout throw throwing thrown throws thru
thrust thrusting thrusts thud thug thugs thumb thumbs thump thumped thumping thunder thursday thus thwarted
thy thyroid ti tia tian tianjin tiberius tibet tibetan tick ticked ticket tickets ticking tidal tide tides
tidy tie tied tier tierney ties tiffany tiger tigers tight tighten tightened tightening tighter tightly til
tile tiled tiles till tilt tilted tilting tim timber timbers time timed timeless timeline timely timer times
timetable timing timmy timor timothy tin tina ting tinged tingle tingling tinted tiny tip tipped tipperary
tipping tips tirana tire tired tires tis tissue tissues titan titanic titanium titans title titled titles tito
tits titular titus tko tn tna tnt to toad toast tobacco tobago tobias tobin toby tod today todd toe toes
together togo toilet toilets token tokugawa tokyo told toledo tolerance tolerant tolerate tolerated tolkien
toll tom tomas tomato tomatoes tomb tombs tombstone tome tommy tomorrow ton tone toned tones tong tonga tongue
tongues toni tonic tonight tonnes tons tony too took tool tools tooth top topic topical topics topographic
topography topological topology topped topping toppled tops tor torah torch torches tore tori torino torment
tormented torn tornado tornadoes toro toronto torpedo torpedoes torque torre torres torso tortricidae torture
tortured tory toss tossed tossing total totaled totaling totally totals tottenham touch touchdown touchdowns
touched touches touching tough toulon toulouse tour toured touring tourism tourist tourists tournament
tournaments tours tow toward towards towed towel towels tower towering towers towing town townland towns
townsend township townships townspeople townsville toxic toxicity toxin toy toyota toys tq tr trace traced
traces tracey tracing track tracked tracker tracking tracks tract traction tractor tractors tracts tracy trade
traded trademark trader traders trades trading tradition traditional traditionally traditions traffic
trafficking trafford tragedy tragic trail trailed trailer trailers trailing trails train trained trainee
trainer trainers training trains trait traitor traits trajectory tram trams tramway tran trance trans
transaction transactions transatlantic transcribed transcript transcription transfer transferred transferring
transfers transform transformation transformations transformed transformers transforming transforms
transgender transient transit transition transitional transitioned transitions translate translated translates
translating translation translations translator translators translit translucent transmission transmissions
transmit transmitted transmitter transmitters transmitting transparency transparent transplant transport
transportation transported transporting transports transvaal transverse transylvania trap trapped trapping
traps trash trauma traumatic travel traveled traveler travelers traveling travelled traveller travellers
travelling travels travers traverse traversed travis tray tre treacherous tread treason treasure treasurer
treasures treasury treat treated treaties treating treatise treatment treatments treats treaty tree trees trek
tremble trembled trembling tremendous tremor trench trenches trend trends trent trenton tres trevor trey tri
triad trial trials triangle triangles triangular triassic tribal tribe tribes tribunal tribune tributaries
tributary tribute trick tricked trickle tricks tricky trident tried trier tries trieste trigger triggered
triggering triggers trillion trilogy trim trimmed trinidad trinity trio trip triple tripoli tripped trips
tristan triumph triumphant trivial trois trojan troll trolley trolls trombone trondheim troop trooper troopers
troops trophies trophy tropical trouble troubled troubles trough troupe trousers trout troy truce truck trucks
true truly truman trump trumpet trumpeter trumpets truncated trunk trunks truss trust trusted trustee trustees
trusting trusts truth truths try trying ts tsar tsunami tt tu tub tuba tube tuberculosis tubes tubular tuck
tucked tucker tucking tucson tudor tuesday tufts tug tugged tugging tugs tuition tulane tully tulsa tumble
tumbled tumbling tumor tumors tun tuna tune tuned tunes tung tunic tuning tunis tunisia tunisian tunnel
tunnels turbine turbines turbo turbulence turbulent turf turin turing turk turkey turkic turkish turkmenistan
turks turmoil turn turnbull turned turner turning turnout turnover turnpike turns turquoise turret turrets
turtle turtles tuscany tutor tv twain tweed twelfth twelve twenties twentieth twenty twice twigs twilight twin
twinkle twinned twins twist twisted twisting twists twitch twitched twitching twitter two tx ty tying tyler
tyne type typed types typhoon typical typically typing tyrant tyre tyres tyrol tyrone tyson ua uae uber
ubiquitous uc uci ucla ud uefa ufc ufo uganda ugly uh uhf ui uk ukraine ukrainian ul ulrich ulster ultimate
ultimately ultimatum ultra ultrasound ultraviolet ulysses um umar umbrella umm umpire un una unable
unacceptable unaffected unanimous unanimously unarmed unauthorized unavailable unaware unbearable unbeaten
unbelievable unbroken uncanny uncertain uncertainty unchanged uncle unclear uncles uncomfortable uncomfortably
uncommon unconscious unconstitutional unconventional uncover uncovered uncredited und undead undefeated under
undercover undergo undergoes undergoing undergone undergraduate underground underlying undermine underneath
underside understand understanding understands understood undertake undertaken undertaker undertaking
undertook underwater underway underwear underwent underwood underworld undeveloped undisclosed undo undone
undoubtedly undrafted une unearthed unease uneasy unemployed unemployment unesco uneven unexpected
unexpectedly unfair unfamiliar unfinished unfit unfolded unfortunate unfortunately unhappy unharmed unicef
unicode unicorn unidentified unification unified uniform uniformed uniformly uniforms unincorporated
uninhabited union unionist unions unique uniquely unison unit unitarian unitary unite united uniting units
unity universal universally universe universidad universite universities university unix unknown unlawful
unleashed unless unlike unlikely unlimited unlock unlocked unmanned unmarked unmarried unmistakable unnamed
unnatural unnecessary unnoticed uno unofficial unofficially unopposed unpaid unpleasant unpopular
unprecedented unpredictable unpublished unreasonable unrelated unreleased unreliable unrest unsafe unseen
unsigned unspecified unspoken unstable unsuccessful unsuccessfully unsuitable unsure until untitled unto
untouched unused unusual unusually unveiled unwanted unwilling up upbeat upbringing upcoming update updated
updates upgrade upgraded upgrades upgrading upheld uphold upland uploaded upon upper uppsala upright uprising
ups upscale upset upside upstairs upstate upstream upton uptown upward upwards ur uranium urban urbana urdu
urge urged urgency urgent urgently urges urging urine ursula uruguay uruguayan us usa usable usaf usage usb
usc usd use used useful useless user users uses usher ushered using usl uss ussr usual usually ut uta utah utc
utilities utility utilization utilize utilized utilizes utilizing utmost utopia utrecht uttar utter uttered
utterly uv uzbekistan va vacancy vacant vacated vacation vaccine vaccines vacuum vague vaguely vain val vale
valencia valentin valentine valerie valet valiant valid validation validity valkyrie valle valley valleys
valor valuable valuation value valued values valve valves vamp vampire vampires vamps van vance vancouver
vanderbilt vane vanessa vanguard vanilla vanish vanished vanishing vanity vans vantage vanuatu vapor var
vargas variability variable variables variance variant variants variation variations varied varies varieties
variety various variously varsity vary varying vascular vase vassal vast vastly vatican vaudeville vaughan
vaughn vault vaulted vaults vc ve vector vectors vedic vega vegas vegetable vegetables vegetarian vegetation
vehicle vehicles veil vein veins velocity velvet vendor vendors venerable venetian venezuela venezuelan
vengeance venice venom vent ventilation ventral vents ventura venture ventured ventures venue venues venus
vera veracruz verandah verb verbal verbs verde verdi verdict verge verification verified verify verity verlag
vermont vernacular vernon verona veronica versa versailles versatile verse verses version versions versus
vertebrae vertex vertical vertically vertices vertigo verve very vessel vessels vest vested vet veteran
veterans veterinary veto vfl vhf vhs vi via viable viaduct vial vibe vibrant vibrated vibrating vibration
vibrations vic vicar vice vicente viceroy vichy vicinity vicious vickers vicki vicky victim victims victor
victoria victorian victories victorious victory vida vidal video videos vidhan vie vienna viet vietnam
vietnamese view viewed viewer viewers viewing viewpoint views vigor vigorous vigorously vii viii vijay viking
vikings vikram viktor vila vile villa village villagers villages villain villains villas ville villiers
vilnius vimes vin vince vincent vincenzo vinci vine vinegar vines vineyard vineyards vinnie vintage vinyl
viola violate violated violating violation violations violence violent violently violet violin violinist
violins vip viper viral virgil virgin virginia virginity virtual virtually virtue virtues virus viruses vis
visa visas viscount vishnu visibility visible visibly vision visionary visions visit visitation visited
visiting visitor visitors visits vista visual visually visuals vita vital vitamin vito vitro vittorio viva
vivian vivid vivo viz vlad vladimir vo vocabulary vocal vocalist vocalists vocals vocational vodka vogel vogue
voice voiced voices void voivodeship vol volatile volcanic volcano volcanoes volga volkswagen volley
volleyball vols volta voltage volume volumes voluntarily voluntary volunteer volunteered volunteers volvo
vomit vomiting von voodoo vortex voss vote voted voter voters votes voting vow vowed vowel vowels vows vox
voyage voyager voyages vp vr vs vt vu vuelta vulcan vulgar vulnerability vulnerable vulture wa wade wadi wage
wages wagner wagon wagons wah wai wainwright waist waistband wait waited waiter waiting waitress waits waived
waivers wake wakefield wakes waking wal walden waldo wales walk walked walker walkers walking walkover walks
walkway wall wallace walled waller wallet wallis walls wally walnut walsall walsh walt walter walters walton
waltz wan wand wanda wander wandered wanderers wandering wang wanna want wanted wanting wants war ward warden
wardrobe wards ware warehouse warehouses warfare warily warlock warlord warm warmed warmer warming warmly
warmth warn warned warner warning warnings warns warp warped warrant warren warring warrington warrior
warriors wars warsaw warship warships wartime warwick warwickshire wary was wash washed washing washington
wasn wasp wasps waste wasted wastewater wasting wat watch watched watches watching water watered waterfall
waterfalls waterford waterfront watering waterloo waters watershed waterway waterways watery watford watkins
watson watt watts wave waved wavelength wavelengths waves waving wavy wax way wayne ways wb wc wcw we weak
weaken weakened weakening weaker weakly weakness weaknesses wealth wealthiest wealthy weapon weaponry weapons
wear wearing wears weary weasel weather weathered weave weaver weaving web webb webber weber website websites
webster wed wedding weddings wedge wednesday wee weed weeds week weekday weekdays weekend weekends weekly
weeks weep weeping wehrmacht wei weigh weighed weighing weighs weight weighted weightlifting weights weimar
weir weird weiss welch welcome welcomed welcoming welded welding welfare well welles wellesley wellington
wellness wells welsh welterweight wembley wen wendell wendy went wentworth wept were weren werewolf werewolves
werner wes wesley wesleyan wessex west westbound westchester western westfield westminster weston westphalia
westward westwood wet wetland wetlands wexford whale whales whaling wharf wharton what whatever whatsoever
wheat wheel wheelbase wheelchair wheeled wheeler wheeling wheels when whenever where whereabouts whereas
whereby wherein whereupon wherever whether which whichever whig while whilst whimper whimpered whip whipped
whipping whirled whiskey whisky whisper whispered whispering whispers whistle whistled whistling whitaker
white whitehall whitehead whites whitish whitley whitman whitney who whoa whoever whole wholesale wholly whom
whore whorls whose why wi wichita wicked wicket wickets wide widely widen widened widening wider widespread
widow widowed widows width wielding wien wiener wife wig wigan wiggled wight wii wikipedia wil wilbur wilcox
wild wildcats wilde wilder wilderness wildlife wildly wiley wilfred wilhelm wilkes wilkins wilkinson will
willard willed willem william williams williamsburg williamson willie willing willingly willingness willis
willoughby willow wills willy wilmington wilson wilton wiltshire wimbledon win wince winced winchester wind
winding windmill window windows winds windshield windsor windy wine winery wines winfield wing winged winger
wings wingspan wink winked winkler winner winners winnie winning winnipeg wins winslow winston winter winters
winthrop wipe wiped wiping wire wired wireless wires wiring wisconsin wisdom wise wish wished wishes wishing
wit witch witchcraft witches with withdraw withdrawal withdrawing withdrawn withdrew within without withstand
witness witnessed witnesses witnessing wits witty wives wizard wizards wnba wo woke woken wolf wolfe wolff
wolfgang wolverhampton wolverine wolves woman womb women won wonder wondered wonderful wondering wonderland
wonders wong woo wood wooded wooden woodland woodlands woodrow woods woodstock woodward woody wool woolf
worcester worcestershire word words wore work worked worker workers workforce working workings workout
workplace works workshop workshops world worlds worldwide worm worms worn worried worries worry worrying worse
worsened worship worshipped worst worth worthless worthy would wouldn wound wounded wounding wounds woven wow
wr wrap wrapped wrapping wraps wrath wreath wreck wreckage wrecked wren wrenched wrestle wrestled wrestlemania
wrestler wrestlers wrestling wrexham wright wrinkled wrist wrists writ write writer writers writes writhing
writing writings written wrocław wrong wrongly wrote wrought wry wryly wta wu wurttemberg wwe wwf wwii www
wyatt wylie wynn wyoming xander xavier xbox xi xiang xiao xii xiii xinjiang xiv xl xml xp xu xv xvi xx ya
yacht yahoo yale yamaha yamamoto yan yang yank yanked yankee yankees yanking yao yard yards yarmouth yarn
yates yawned yd ye yeah year yearbook yearly yearning years yeast yell yelled yelling yellow yellowish
yellowstone yells yemen yen yeomanry yep yer yerevan yes yeshiva yesterday yet yi yiddish yield yielded
yielding yields yin ying ymca yo yoga yoko yokohama yong yoo yoon york yorker yorkshire you young younger
youngest your yours yourself yourselves youth youthful youths youtube yu yuan yucatan yue yugoslav yugoslavia
yuki yukon yun yunnan yuri yusuf yves yvonne za zac zach zachary zack zagreb zambia zane zaragoza ze zealand
zebra zee zeke zen zenith zeppelin zero zeta zeus zev zhang zhao zhejiang zheng zhou zhu zimbabwe zimmerman
zinc zion zionist zip zipper zodiac zoe zombie zombies zone zones zoning zoo zoological zoology zoom zu zulu
zur zurich łodz
$words$, '\s+') as w
    where w <> ''
),

gone as (
    delete from pymem_private.model_words as m
    where m.embedding_model = 'sentence-transformers/all-MiniLM-L6-v2'
      and not exists (select from shipped as s where s.word = m.word)
)

insert into pymem_private.model_words (embedding_model, word)
select 'sentence-transformers/all-MiniLM-L6-v2', s.word from shipped as s
on conflict do nothing;
