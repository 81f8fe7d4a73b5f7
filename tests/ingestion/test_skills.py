import pytest

from talentrag.domain import MatchKind, SkillStrength
from talentrag.ingestion.skills import extract_skills, find_mentions, sentence_span
from talentrag.vocabulary import Vocabulary


def _held(text: str, vocabulary: Vocabulary) -> set[str]:
    return {h.skill for h in extract_skills(text, vocabulary, "cv.txt").held}


def test_mentions_carry_offsets(vocabulary: Vocabulary):
    text = "Deployed on EKS with Helm charts."
    mentions = find_mentions(text, vocabulary)
    assert [(m.skill, text[m.start : m.end]) for m in mentions] == [
        ("Amazon EKS", "EKS"),
        ("Helm", "Helm charts"),
    ]


def test_evidence_is_the_sentence_with_offsets(vocabulary: Vocabulary):
    text = "Summary line.\n- Built ETL jobs in PySpark. Also wrote Go services."
    held = {h.skill: h for h in extract_skills(text, vocabulary, "cv.txt").held}
    evidence = held["PySpark"].evidence[0]
    assert evidence.text == "Built ETL jobs in PySpark."
    assert text[evidence.start : evidence.end] == evidence.text
    assert evidence.source_file == "cv.txt"
    assert held["Apache Spark"].kind is MatchKind.IMPLIED


@pytest.mark.parametrize(
    ("text", "held", "not_held"),
    [
        ("Strong Python skills but no commercial Java experience.", {"Python"}, {"Java"}),
        ("No commercial experience with Java.", set(), {"Java"}),
        ("Currently learning Rust and Go.", set(), {"Rust", "Go"}),
        ("Interested in machine learning.", set(), {"Machine Learning"}),
        ("Would like to pick up Terraform.", set(), {"Terraform"}),
        ("Not yet worked with Kafka.", set(), {"Kafka"}),
        ("Rust (learning), Python, Docker", {"Python", "Docker"}, {"Rust"}),
        ("Migrated 40 services to Kubernetes without downtime.", {"Kubernetes"}, set()),
        ("Built an e-learning platform with Django.", {"Django", "Python"}, set()),
        ("Machine learning engineer using PyTorch.", {"Machine Learning", "PyTorch"}, set()),
    ],
)
def test_negated_and_aspirational_mentions_are_not_held(
    vocabulary: Vocabulary, text, held, not_held
):
    found = _held(text, vocabulary)
    assert held <= found
    assert not (not_held & found)


def test_exact_case_spellings(vocabulary: Vocabulary):
    assert "Go" in _held("Services written in Go and Python.", vocabulary)
    assert "Go" not in _held("Ready to go the extra mile.", vocabulary)


def test_emails_do_not_produce_skills(vocabulary: Vocabulary):
    extraction = extract_skills(
        "Contact: python.dev@example.com", vocabulary, "cv.txt", skip=[(9, 31)]
    )
    assert extraction.held == []


def test_a_dot_inside_a_skill_name_is_not_a_clause_break(vocabulary: Vocabulary):
    found = _held("Interested in express.js and Laravel.", vocabulary)
    assert "Laravel" not in found


def test_a_mention_opening_a_sentence_gets_only_its_own_sentence():
    text = "Foo bar. Python rocks.\n- Then Go."
    assert text[slice(*sentence_span(text, 9, 15))] == "Python rocks."
    assert text[slice(*sentence_span(text, 0, 3))] == "Foo bar."
    assert text[slice(*sentence_span(text, 30, 32))] == "Then Go."


def _extraction(text: str, vocabulary: Vocabulary):
    return extract_skills(text, vocabulary, "cv.txt")


def _reasons(text: str, vocabulary: Vocabulary) -> dict[str, str]:
    return {r.skill: r.reason for r in _extraction(text, vocabulary).rejected}


# -- mention disambiguation -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "H.S.C. (2012), S.S.C. (2010)",
        "M.C.A (2010-2013) - Cochin University",
        "Address: C/O: Shri Prakash Kulkarni, Indore",
        "Designed cost centres including R&D cost centres.",
        "Site Supervisor - R K Electricals, Bhopal",
        "Handled cutover and Post Go-live support (hypercare).",
        "Modal analysis of a go-kart chassis.",
        "B.E. (Civil Engineering) - A C Patil College of Engineering, Kharghar",
        "B.Tech - IPS Academy, Indore",
        "Father's Name : Shri R. K. Shankar",
        "Excel at building relationships with customers.",
    ],
)
def test_abbreviations_names_and_everyday_words_are_no_short_skills(
    vocabulary: Vocabulary, text: str
):
    assert not {"C", "R", "Go", "Network Security", "Microsoft Excel"} & _held(text, vocabulary)


def test_an_abbreviation_is_kept_as_a_rejected_mention_with_its_reason(vocabulary: Vocabulary):
    reasons = _reasons("H.S.C. (2012)\nResearch Intern, R&D lab\nIPS Academy, Indore", vocabulary)
    assert reasons["C"] == "abbreviation"
    assert reasons["R"] == "abbreviation"
    assert reasons["Network Security"] == "employer_or_school_name"


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Languages: C, C++, Python", "C"),
        ("Firmware programming in C for ARM boards.", "C"),
        ("Statistics in R and Stan.", "R"),
        ("Built backend services in Go.", "Go"),
        ("Mobile: Swift, Kotlin", "Swift"),
        ("SKILLS\nExcel\nWord\n", "Microsoft Excel"),
        ("Cleaned dealer data in excel and Power Query.", "Microsoft Excel"),
        ("Front end: HTML, CSS, bootstrap, jQuery", "Bootstrap"),
        # a one-line skills list in bullets, as resumes scraped from job boards write it
        ("Skills * Solidity, Smart Contracts * Truffle, Ganache, Hardhat * Ethereum", "Truffle"),
        ("Technical Skills • Big Data: Hadoop, HDFS, Hive, Pig, Sqoop • Web: JSP", "Apache Pig"),
    ],
)
def test_short_and_everyday_names_count_in_a_skill_context(
    vocabulary: Vocabulary, text: str, skill: str
):
    assert skill in _held(text, vocabulary)


def test_lower_case_short_names_never_match(vocabulary: Vocabulary):
    assert "Go" not in _held("Python, go, Rust", vocabulary)


def test_an_everyday_word_in_another_case_needs_more_than_a_preposition(vocabulary: Vocabulary):
    assert "Scaled Agile Framework" not in _held(
        "Help clients reach goals in safe manner.", vocabulary
    )
    assert "Scaled Agile Framework" in _held("Ran PI planning in SAFe.", vocabulary)
    assert "Microsoft Excel" in _held("Prepared test cases in excel sheets.", vocabulary)


def test_a_one_letter_name_joined_to_a_trades_acronym_is_no_language(vocabulary: Vocabulary):
    assert "R" not in _held("Hands-on HVAC/R service technician.", vocabulary)
    assert "R" in _held("SKILLS\nPython/R, SQL", vocabulary)


def test_troubleshooting_is_its_own_practice(vocabulary: Vocabulary):
    found = _held("Packet capture analysis using Wireshark for troubleshooting.", vocabulary)
    assert "Troubleshooting" in found and "Problem Solving" not in found
    assert "Bilingual" not in _held("Clear briefings to a multilingual brigade.", vocabulary)


def test_a_sales_qualified_lead_is_no_database_language(vocabulary: Vocabulary):
    found = _held("Built lead scoring and the MQL-to-SQL handover with sales.", vocabulary)
    assert "SQL" not in found
    assert "Lead Qualification" in found


def test_a_spelling_never_spans_a_comma_or_a_line_break(vocabulary: Vocabulary):
    mentions = find_mentions("Skills: Spring, Boot camps\nMachine\nLearning", vocabulary)
    assert "Spring Boot" not in {m.skill for m in mentions}
    assert "Machine Learning" not in {m.skill for m in mentions}


def test_everyday_word_umbrellas_count_only_as_whole_items_of_a_skills_list(
    vocabulary: Vocabulary,
):
    assert "Nursing" in _held("SKILLS\nNursing, Wound Care, Triage\n", vocabulary)
    assert "Nursing" not in _held("Worked in a nursing home as a cleaner.", vocabulary)
    assert "Nursing" not in _held("SKILLS\nNursing home liaison\n", vocabulary)


def test_a_host_name_is_no_skill(vocabulary: Vocabulary):
    assert "GitHub" not in _held("Jane Doe | github.com/jane-doe", vocabulary)


# -- context of each mention --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "skill", "reason"),
    [
        ("I have no hands-on Kubernetes or Terraform experience.", "Terraform", "negated"),
        ("Currently learning Rust in my spare time.", "Rust", "aspirational"),
        ("Currently preparing for NCLEX-RN.", "NCLEX", "aspirational"),
        (
            "I have filled 110+ roles for Java, Python, React and Kubernetes engineers.",
            "Kubernetes",
            "other_person",
        ),
        ("Placed 48 engineers (Java, .NET, Python) with 25 clients.", ".NET", "other_person"),
        (
            "My platform team did the Terraform work; I owned the budget.",
            "Terraform",
            "other_person",
        ),
        ("Hand off designs to React and Swift developers.", "React", "other_person"),
        ("Agency recruiter for senior Python and Go positions.", "Python", "other_person"),
        (
            "Built admin panels for the mobile apps of our clients.",
            "Mobile App Development",
            "project_domain",
        ),
        ("Coordinating with the ABAP team for development.", "SAP ABAP", "other_person"),
        ("The app is available on Android and iOS.", "iOS Development", "project_domain"),
        ("I work for clients using SAP and Oracle.", "SAP ERP", "project_domain"),
        (
            "I have sold Autodesk software (AutoCAD, Revit) to architects.",
            "Revit",
            "project_domain",
        ),
        (
            "Created Jenkins pipelines for Java and Node.js applications.",
            "Node.js",
            "project_domain",
        ),
        ("Our platform team runs the Kubernetes cluster.", "Kubernetes", "other_person"),
        ("Booked inbound slots for suppliers' HGV drivers.", "HGV Licence", "other_person"),
        (
            "Business or sector: Manufacture of pharmaceutical products",
            "pharmaceutical products",
            "project_domain",
        ),
        ("Our backend team (Node.js, PostgreSQL) owned the APIs.", "PostgreSQL", "other_person"),
        ("Sent journals on; our finance team posts them to Xero.", "Xero", "other_person"),
        ("Prepared datasets for the BI team's Power BI reports.", "Power BI", "other_person"),
        (
            "Mentored three graduate engineers; two built their services in Kotlin.",
            "Kotlin",
            "other_person",
        ),
        (
            "Taught a class of apprentices, most of whom now use AutoCAD daily.",
            "AutoCAD",
            "other_person",
        ),
        (
            "Acted in a suit against a supplier for a botched Salesforce rollout.",
            "Salesforce",
            "project_domain",
        ),
        ("Advised on a dispute over the tenant's payroll software.", "Payroll", "project_domain"),
        (
            "Tendered six works packages including plumbing and roofing.",
            "Plumbing",
            "project_domain",
        ),
        (
            "Bank reconciliations are prepared by the group accountants.",
            "Account Reconciliation",
            "other_person",
        ),
        (
            "Payroll runs are handled by the HR officer; I check the totals.",
            "Payroll",
            "other_person",
        ),
        ("Interfaces with other site trades (plumbing, joinery).", "Plumbing", "other_person"),
        ("The client's developers maintained it in Django.", "Django", "other_person"),
        ("The franchise's accountant keeps the books in Xero.", "Xero", "other_person"),
        ("Ran a club where pupils learned Python.", "Python", "other_person"),
        ("Marked the pupils' projects on solar energy.", "solar energy", "other_person"),
        ("Receptionist for a digital marketing company.", "Digital Marketing", "project_domain"),
        (
            "Hired 9 data/ML engineers with Spark and Airflow experience.",
            "Apache Spark",
            "other_person",
        ),
        (
            "Finance relies on the BI team, who maintain the Looker models.",
            "Looker",
            "other_person",
        ),
        (
            "On the line, the automation team programmed the Siemens PLCs.",
            "PLC Programming",
            "other_person",
        ),
        ("Ran the English department's Python club rota.", "Python", "other_person"),
        (
            "Planning to begin a Master of Nurse Practitioner next year.",
            "Nurse Practitioner",
            "aspirational",
        ),
        ("Used our recruitment agency for 40 seasonal hires.", "Recruitment", "other_person"),
        ("Liaised with the tax team and our auditors on VAT returns.", "VAT", "other_person"),
        ("Coordinated with the electrical contractor on HVAC controls.", "HVAC", "other_person"),
        (
            "I learned enough about Kafka and Kubernetes to screen candidates.",
            "Kubernetes",
            "other_person",
        ),
        (
            "Team offsite at Oracle Park, San Francisco.",
            "Oracle Database",
            "employer_or_school_name",
        ),
        (
            "Built apps in React for a retail client (inventory management and payroll).",
            "Payroll",
            "project_domain",
        ),
        ("Month-end payroll is run by an outsourced bureau.", "Payroll", "other_person"),
        ("Our vendor configured Salesforce for the sales team.", "Salesforce", "other_person"),
        ("Escalated breaches to our data protection officer.", "GDPR", "other_person"),
        (
            "Partnered with the audit team and our data protection officer on retention rules.",
            "GDPR",
            "other_person",
        ),
        ("Pastry Chef, Java House Coffee Roasters & Bakery", "Java", "employer_or_school_name"),
        ("Server, Ruby's Diner, Halifax (2018 - 2020)", "Ruby", "employer_or_school_name"),
        ("Line cook at Java Grill, Austin", "Java", "employer_or_school_name"),
        (
            "Analyst, Oracle Financial Services Software Ltd",
            "Oracle Financials",
            "employer_or_school_name",
        ),
        # a listed skill with a statement after it
        ("Kafka: none so far.", "Apache Kafka", "negated"),
        ("Scala: never professionally.", "Scala", "negated"),
        ("Snowflake: no real production experience.", "Snowflake", "negated"),
        (
            "Terraform Associate - scheduled for 2027",
            "HashiCorp Certified Terraform Associate",
            "aspirational",
        ),
        ("Haskell — tinkering with it on weekends.", "Haskell", "aspirational"),
        # a statement after a list item covers the item, and only it
        ("Skills: Looker - no hands-on", "Looker", "negated"),
        ("Skills: Go - learning", "Go", "aspirational"),
        ("TOOLS\nLooker - no hands-on\nRust - learning\n\nEDUCATION\nBSc", "Rust", "aspirational"),
        ("Skills: Git, Docker / Helm - no exposure yet", "Docker", "negated"),
        ("Load testing with Gatling: not yet, planning to learn it.", "Gatling", "negated"),
        ("Hands on Azure - No, worked only on on-premise servers.", "Microsoft Azure", "negated"),
        ("Docker: I have never used it.", "Docker", "negated"),
        ("Kafka: not yet in production, we only have a lab.", "Apache Kafka", "negated"),
        ("Client : SAP S/4HANA rollout for a retailer", "SAP ERP", "project_domain"),
        ("Tableau extracts come refreshed from the BI team.", "Tableau", "other_person"),
        ("The AutoCAD drawings were drawn by the draughtsmen.", "AutoCAD", "other_person"),
        (
            "Cuts were edited by our video editors in Premiere Pro.",
            "Adobe Premiere Pro",
            "other_person",
        ),
        # the role sought, a plan written as a label
        ("Looking for a role where I can work on Kafka and Flink.", "Apache Flink", "aspirational"),
        ("Planning: AWS Certified Developer in 2027.", "AWS Certified Developer", "aspirational"),
        # the statement covers a long item, and only the item it follows
        (
            "Certificates: AWS Certified Solutions Architect Professional - planned for 2027",
            "AWS Certified Solutions Architect",
            "aspirational",
        ),
        ("Tried Svelte for an internal demo, nothing shipped yet.", "Svelte", "aspirational"),
        ("I would like to rewrite our parser in Rust.", "Rust", "aspirational"),
        # a sentence says one thing of a skill: the meetup's name is no skill either
        (
            "Kotlin Meetup Berlin 2024 – attended, planning to learn Kotlin next",
            "Kotlin",
            "aspirational",
        ),
        # other people named by a pronoun, a role or a team, as subject or agent
        ("Liaise with the web squad (they use Angular and NgRx).", "Angular", "other_person"),
        (
            "The DBAs handled PostgreSQL upgrades; I wrote the migrations.",
            "PostgreSQL",
            "other_person",
        ),
        ("Our release engineer maintains the Jenkins farm.", "Jenkins", "other_person"),
        (
            "Interface drawings were drawn in Visio by the architects.",
            "Microsoft Visio",
            "other_person",
        ),
        ("The finance team reported in Tableau each Monday.", "Tableau", "other_person"),
        (
            "Trained 30 store managers; most of them now build their own reports in Power BI.",
            "Power BI",
            "other_person",
        ),
        (
            "The insurer's claims platform is COBOL and I only call its web services.",
            "COBOL",
            "other_person",
        ),
        ("Our Salesforce partner configured the CPQ module.", "Salesforce", "other_person"),
        (
            "Agreed promotions with the key account managers.",
            "Key Account Management",
            "other_person",
        ),
        (
            "Brackets for aerospace and consumer electronics customers.",
            "consumer electronics",
            "project_domain",
        ),
        (
            "Drawings come from our design office engineers in AutoCAD.",
            "AutoCAD",
            "other_person",
        ),
        (
            "Budgets are updated in Primavera P6 by our cost estimator.",
            "Primavera P6",
            "other_person",
        ),
        ("The façade model is produced by the architect's team in Revit.", "Revit", "other_person"),
        ("REFERENCES\nJulia Novak, Head of Data, Acme Ltd", "Julia", "other_person"),
        # others' work in a passive, through a partner, or reviewed
        (
            "Campaigns (Facebook / Google ads) run by regional marketing team.",
            "Google Ads",
            "other_person",
        ),
        (
            "Load tests were done by the client's performance team using LoadRunner.",
            "LoadRunner",
            "other_person",
        ),
        (
            "Forklift operation is done by certified operators only.",
            "Forklift Operation",
            "other_person",
        ),
        ("Developers (Kotlin, React) are from the vendor team.", "Kotlin", "other_person"),
        ("QA team automates regression in Cypress; I write test cases.", "Cypress", "other_person"),
        ("• QA team automates regression in Cypress;\nI plan UAT.", "Cypress", "other_person"),
        (
            "Paid search runs through our agency partner in Google Ads.",
            "Google Ads",
            "other_person",
        ),
        ("Managed 3 analysts and reviewed their Power BI dashboards.", "Power BI", "other_person"),
        (
            "For clients implementing Workday I write the requirements.",
            "Workday HCM",
            "other_person",
        ),
        ("Their instructors teach Python on screen; I cut the videos.", "Python", "other_person"),
        (
            "Clients mostly consumer electronics makers and restaurants.",
            "consumer electronics",
            "project_domain",
        ),
        (
            "Video editor at a digital media studio, cutting reels.",
            "digital media",
            "project_domain",
        ),
        (
            "Physician recruitment is done by the health system's physician recruiter.",
            "Recruitment",
            "other_person",
        ),
        (
            "Statutory audits of charities: fixed assets, stock counts, payroll testing.",
            "Payroll",
            "project_domain",
        ),
        # people named bare at a clause's start, and work a unit ran for the author
        ("Site planners raise work orders in Primavera P6.", "Primavera P6", "other_person"),
        ("I triage tickets; developers use Jira for the rest.", "Jira", "other_person"),
        (
            "The move from MySQL to PostgreSQL is run by the project office.",
            "MySQL",
            "other_person",
        ),
        # what a client had or a product was for
        (
            "The customer migrated from Oracle E-Business Suite to NetSuite last year.",
            "Oracle Financials",
            "project_domain",
        ),
        (
            "Firmware for a consumer electronics manufacturer.",
            "consumer electronics",
            "project_domain",
        ),
        (
            "Offline maps that run on a farmer's Android phone.",
            "Android Development",
            "project_domain",
        ),
        (
            "Sales Engineer, Northern Power Distribution Co., Manila",
            "Power Systems",
            "employer_or_school_name",
        ),
        # stop 31: recruiters, teams, passives, plans and names
        ("Closed 85 positions for Kotlin and QA roles in 2024.", "Kotlin", "other_person"),
        ("The billing team processes refunds in Xero.", "Xero", "other_person"),
        (
            "Our vendor's support team is rewriting the portal in Angular.",
            "Angular",
            "other_person",
        ),
        ("The Flutter app was done by another trainee.", "Flutter", "other_person"),
        ("Dressings and wound care given by physiotherapist.", "Wound Care", "other_person"),
        ("Reserving models in SAS are maintained by the actuaries.", "SAS", "other_person"),
        (
            "Sales tax and payroll matters of the firm are handled by our CA.",
            "Payroll",
            "other_person",
        ),
        (
            "Cloud bills and Azure DevOps runs are watched by DevOps.",
            "Azure DevOps",
            "other_person",
        ),
        (
            "Lead a team of 9: three welders, two fitters and a forklift operator.",
            "Forklift Operation",
            "other_person",
        ),
        ("Hoping to enrol for a certificate in Xero next year.", "Xero", "aspirational"),
        ("Refer clients for physiotherapy after a fall.", "Physiotherapy", "other_person"),
        (
            "Culture and sensitivity testing is run by pathology.",
            "Culture and Sensitivity Testing",
            "other_person",
        ),
        (
            "Site drawings with AutoCAD support from the draughtsmen on the night shift.",
            "AutoCAD",
            "other_person",
        ),
        (
            "Oversee the Retail portfolio: 9 projects (Java, Kotlin and React).",
            "React",
            "other_person",
        ),
        ("Escalations go to Mr. Julia Santos, Ops Lead.", "Julia", "other_person"),
        ("The practice is moving to Xero next spring.", "Xero", "negated"),
        ("Certifications: CISSP - preparing, exam in 2027", "CISSP", "aspirational"),
        (
            "Our customers are dental clinics running Dentrix.",
            "Dentrix",
            "project_domain",
        ),
        (
            "Keyed the physiotherapy charges for the outpatient wing.",
            "Physiotherapy",
            "project_domain",
        ),
        ("Member of the Scala Heights Residents Association.", "Scala", "employer_or_school_name"),
        ("Sight-reading in C major and A minor for grade 3 pupils.", "C", "abbreviation"),
        ("No hands-on shop floor robot cell programming (FANUC).", "FANUC", "negated"),
        (
            "The promo reels were cut by my sister in Final Cut Pro.",
            "Final Cut Pro",
            "other_person",
        ),
        (
            "The Power BI report for that project was built by my teammate.",
            "Power BI",
            "other_person",
        ),
        (
            "Monthly KPI decks are made in Power BI by the MIS executive.",
            "Power BI",
            "other_person",
        ),
        ("Load-flow studies in ETAP are carried out by the design cell.", "ETAP", "other_person"),
        (
            "Reactive programming (Spring WebFlux) is not used in our codebase.",
            "Spring WebFlux",
            "negated",
        ),
        (
            "The Kafka upgrade was not part of the scope; I attended the workshops.",
            "Apache Kafka",
            "negated",
        ),
        ("The Looker reports are the BI team's work; I only read them.", "Looker", "other_person"),
        ("SKILLS\n* Vue / Svelte - not known", "Svelte", "negated"),
        (
            "No exposure to cold storage or inventory platforms like Manhattan WMS.",
            "Manhattan WMS",
            "negated",
        ),
        ("Helpdesk support is outsourced to an external provider.", "IT Support", "other_person"),
        (
            "Timesheets go to the finance team, who keep the books in QuickBooks.",
            "QuickBooks",
            "other_person",
        ),
        (
            "Working alongside purchasing, who run the tenders in SAP Ariba.",
            "SAP Ariba",
            "other_person",
        ),
        (
            "Organised a two-day seminar on workplace safety.",
            "Health and Safety Compliance",
            "project_domain",
        ),
        (
            "Clients include a dental practice, two gyms, a consumer electronics maker.",
            "consumer electronics",
            "project_domain",
        ),
        (
            "Hoping to study for the CIMA Certificate in Business Accounting.",
            "CIMA",
            "aspirational",
        ),
        (
            "Planning to sit the AAT Level 3 Certificate in Bookkeeping next spring.",
            "Bookkeeping",
            "aspirational",
        ),
        ("Summer intern, Ruby Clarke LLP, Bristol", "Ruby", "employer_or_school_name"),
        ("Exports are handled by our freight forwarder.", "Freight Forwarding", "other_person"),
        (
            "Western blot confirmations are sent to the regional laboratory.",
            "Western Blotting",
            "other_person",
        ),
        (
            "Looker dashboards on top of our BigQuery marts are built by the analytics team.",
            "Looker",
            "other_person",
        ),
        (  # a PDF's doubled spaces between the words of a cue
            "Load-flow  studies  in  ETAP  are  done  by  the  protection  wing.",
            "ETAP",
            "other_person",
        ),
        ("Skill | Level | Note\nLooker | None | the analysts build them", "Looker", "negated"),
        ("Tool | Use\nQlik Sense | Not used - the group standard is Power BI", "Qlik", "negated"),
        ("Tools: Figma, Jira. Kotlin: read about it, no project yet.", "Kotlin", "negated"),
        ("Next on my list: Elixir, for a side project on weekends.", "Elixir", "aspirational"),
        ("Tools: Git\n- Next on my list: Elixir, for a side project.", "Elixir", "aspirational"),
        (
            "The risk team's scoring models are built in R; I consume their outputs.",
            "R",
            "other_person",
        ),
        ("Samples stored at 4 °C (±1°C) in the cold room.", "C", "abbreviation"),
        ("Junior counsel in R v Patel (2024), a VAT fraud trial.", "R", "abbreviation"),
        (
            "We trialled Svelte for the booking widget but I have not worked on it.",
            "Svelte",
            "negated",
        ),
        ("Target next: CISSP in 2028.", "CISSP", "aspirational"),
        ("CFA Level I - planning to sit in 2027", "Chartered Financial Analyst", "aspirational"),
        (
            "Aiming to clear the CompTIA Security+ exam next spring.",
            "CompTIA Security+",
            "aspirational",
        ),
        (  # an abbreviated degree's full stop ends no clause
            "I hope to pursue an M.Sc. in Data Science after two more years of work.",
            "Data Science",
            "aspirational",
        ),
        (
            "Recruitment is done by the plant HR / admin team.",
            "Recruitment",
            "other_person",
        ),
        ("Scrum ceremonies are run by the client's engineering managers.", "Scrum", "other_person"),
        ("Month-end payroll is processed by the group's bookkeepers.", "Payroll", "other_person"),
        (
            "Adverse event reports are forwarded to the pharmacovigilance unit.",
            "pharmacovigilance legislation EU",
            "other_person",
        ),
        (
            "Built a stock sync API for Ruby Traders, a wholesale client.",
            "Ruby",
            "employer_or_school_name",
        ),
    ],
)
def test_mentions_that_are_not_the_authors_skills(
    vocabulary: Vocabulary, text: str, skill: str, reason: str
):
    assert skill not in _held(text, vocabulary)
    assert _reasons(text, vocabulary)[skill] == reason


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Our team built the billing service in Kotlin.", "Kotlin"),
        ("Led the move to Kubernetes for 40 services.", "Kubernetes"),
        ("Senior Java Engineer at Acme, 2019 - present.", "Java"),
        ("Developed 6 Android apps with Kotlin.", "Android Development"),
        ("Hired as a Python developer in 2019.", "Python"),
        ("Sold the idea of CI to the team and built it with Jenkins.", "Jenkins"),
        ("Implemented SAP S/4HANA for clients in retail.", "SAP ERP"),
        ("Hiring manager for the Kubernetes migration, which I led hands-on.", "Kubernetes"),
        ("Led our data team in building Spark pipelines.", "Apache Spark"),
        ("Wrote ETL jobs in Java for web services.", "Java"),
        ("Mentored two interns; I built the Kotlin services they tested.", "Kotlin"),
        ("Resilience: risk management, company continuity plans.", "Risk Management"),
        ("Paralegal in a corporate law firm since 2020.", "Corporate Law"),
        ("Supervised four analysts and built their Tableau dashboards myself.", "Tableau"),
        ("As our first data engineer, I built the Airflow pipelines.", "Apache Airflow"),
        ("Kafka: five years in production.", "Apache Kafka"),
        ("I want to keep improving our Go services.", "Go"),
        ("Used Python's asyncio and Ruby's Enumerable daily.", "Ruby"),
        ("I use Jira daily (developers use it too).", "Jira"),
        ("Skills: Docker, Kubernetes - planned for 2027", "Docker"),
        ("Skills: Git, Docker / Helm - no exposure yet", "Git"),
        ("Hired 5 engineers using LinkedIn Recruiter.", "LinkedIn Recruiter"),
        ("Built reports and data\nvisualization for finance.", "Data Visualization"),  # a wrap
        ("Built 12 services, most of them in Go.", "Go"),
        ("Wrote the internal API they use daily, in Go.", "Go"),
        ("Built Shiny apps used by the finance team for forecasts.", "R Shiny"),
        ("Purchasing, inventory management, vendor onboarding.", "Inventory Management"),
        ("Tools: Microsoft Word / Outlook / Teams", "Microsoft Outlook"),
        ("Tools: Microsoft Word / Outlook / Teams", "Microsoft Teams"),
        ("Languages: C, Assembly, Python", "Assembly Language"),
        ("SKILLS\n- Lean / 5S, SPC charting, setup reduction", "Lean Manufacturing"),
        ("SKILLS\n- Lean / 5S, SPC charting, setup reduction", "Statistical Process Control"),
        ("Child protection • Court reports • Microsoft Word, Outlook, Teams", "Microsoft Word"),
        ("The customer migrated from Oracle E-Business Suite to NetSuite last year.", "NetSuite"),
        ("Built the MS Excel trackers for the PMO.", "Microsoft Excel"),
        ("Closed the month-end books in Xero.", "Xero"),
        ("Wrote the sensor drivers in C.", "C"),
        ("Spent six years as a cardiac ICU staff nurse.", "Critical Care Nursing"),
        ("My team's dashboards are built in Tableau, most of them by me.", "Tableau"),
    ],
)
def test_the_authors_own_work_stays_held(vocabulary: Vocabulary, text: str, skill: str):
    assert skill in _held(text, vocabulary)


def test_a_terminator_ends_a_cues_scope(vocabulary: Vocabulary):
    found = _held("Our finance team handled IFRS reporting, while I own US GAAP close.", vocabulary)
    assert "IFRS" not in found
    assert "GAAP" in found


# -- strength -------------------------------------------------------------------------------

CV = """Jane Doe

SUMMARY
Backend engineer who likes Kafka.

EXPERIENCE
Engineer, Acme | 2019 - present
- Built services in Python on PostgreSQL.

SKILLS
Python, Docker, Kafka

EDUCATION
BSc Computer Science, 2018
Relevant coursework: Haskell
"""


def test_each_held_skill_records_its_strongest_place(vocabulary: Vocabulary):
    held = {h.skill: h.strength for h in _extraction(CV, vocabulary).held}
    assert held["Python"] is SkillStrength.ROLE  # in a role beats the skills list
    assert held["Docker"] is SkillStrength.SKILLS_LIST
    assert held["Apache Kafka"] is SkillStrength.SKILLS_LIST  # the list beats the summary
    assert held["Haskell"] is SkillStrength.COURSE


def test_a_course_cue_makes_a_mention_course_only(vocabulary: Vocabulary):
    held = {
        h.skill: h.strength
        for h in _extraction(
            "EXPERIENCE\nDev, Acme | 2020 - present\n- Docker (coursework only), React apps.\n",
            vocabulary,
        ).held
    }
    assert held["Docker"] is SkillStrength.COURSE
    assert held["React"] is SkillStrength.ROLE


@pytest.mark.parametrize(
    ("text", "held", "not_held"),
    [
        ("LANGUAGES KNOWN\nTamil, English, Hindi\n", {"Tamil", "English", "Hindi"}, set()),
        (
            "PERSONAL DETAILS\nDate of Birth: 09-11-2000 | Languages Known: Tamil, English | "
            "Nationality: Indian\n",
            {"Tamil", "English"},
            set(),
        ),
        (
            "PERSONAL SKILLS\nMother tongue: Polish\n• English: C2 / C2 / C1\n"
            "German    B1    B2    A2\n",
            {"Polish", "English", "German"},
            set(),
        ),
        ("Languages\nArabic (Native or Bilingual)\n", {"Arabic"}, {"Bilingual"}),
        ("Sold to a Polish retailer and a Chinese distributor.", set(), {"Polish", "Mandarin"}),
    ],
    ids=["section", "labelled-field", "europass", "linkedin-level", "nationality-in-prose"],
)
def test_spoken_languages_count_in_language_lists(vocabulary: Vocabulary, text, held, not_held):
    found = _held(text, vocabulary)
    assert held <= found
    assert not not_held & found


@pytest.mark.parametrize(
    ("text", "not_held"),
    [
        ("SOFTWARE\nAutoCAD, Revit\n", "software"),  # a heading names a list
        ("SKILL DETAILS\nAngular - Experience - Less than 1 year months\n", "LESS"),
        ("Class XII (W.B.C.H.S.E.) – 2006", "Weights & Biases"),
        ("SSC (2018) - Board of Secondary Education Telangana - 9.5 GPA", "Secondary Education"),
        ("Prize of the Society for Medical Informatics and Epidemiology", "medical informatics"),
        ("Approved Electrician | 18th Edition | ECS Gold Card", "Amazon ECS"),
        ("AWS D1.1 certified (3G/4G), ASME Section IX 6G pipe.", "AWS"),
        ("Wrote unit test cases using xUnit and Moq.", "Test Planning"),
        ("Automated daily stock reconciliation with a pandas script.", "Account Reconciliation"),
    ],
)
def test_names_headings_and_other_meanings_are_no_skills(
    vocabulary: Vocabulary, text: str, not_held: str
):
    assert not_held not in _held(text, vocabulary)


def test_a_lower_case_spelling_counts_as_a_whole_list_item(vocabulary: Vocabulary):
    assert "Microsoft Excel" in _held("SKILLS\nword, excel, powerpoint\n", vocabulary)
    assert "Microsoft Excel" in _held("Prepared test cases in excel sheets.", vocabulary)
    assert "LESS" not in _held("Python - Experience - Less than 1 year", vocabulary)


def test_a_platforms_brackets_name_its_products(vocabulary: Vocabulary):
    held = _held("Cloud: AWS (SageMaker, ECS, EMR, S3)\nAWS (Glue, Redshift, Lambda)", vocabulary)
    assert {"Amazon EMR", "AWS Glue", "AWS Lambda", "Amazon ECS", "Amazon S3"} <= held
    # outside the brackets, or in another platform's, the bare names are nothing
    assert not {"AWS Lambda", "AWS Glue"} & _held(
        "AWS (EC2), Lambda calculus and Glue code.\nWrote a lambda in Python.", vocabulary
    )
    assert "Oracle Cloud Infrastructure" not in _held(
        "Opera PMS (Oracle Hospitality OPERA Cloud): reservations.", vocabulary
    )


def test_a_bracketed_cue_qualifies_only_its_own_item(vocabulary: Vocabulary):
    text = (
        "Systems: Microsoft 365, Power BI (basic), Salesforce-based customer contact CRM "
        "(as sponsor; I do not administer it)."
    )
    held = _held(text, vocabulary)
    assert "Power BI" in held
    assert "Salesforce" not in held


def test_a_team_member_holds_the_teams_method(vocabulary: Vocabulary):
    assert "Scrum" in _held("Organisational skills: Scrum team member, sprint demos", vocabulary)
    assert "Java" not in _held("Worked with the Java team on contracts.", vocabulary)


@pytest.mark.parametrize(
    "text", ["Conducting UAT with key users.", "Requirements, user stories and UAT coordination."]
)
def test_an_acronym_is_a_skill_where_work_is_done_with_it(vocabulary: Vocabulary, text: str):
    assert "User Acceptance Testing" in _held(text, vocabulary)


def test_a_degree_subject_outside_the_holders_field_is_no_skill(vocabulary: Vocabulary):
    text = (
        "EDUCATION\n"
        "B.S. Electrical Engineering — University of California, Davis, 1998\n"
        "Relevant coursework: Digital Signal Processing\n"
    )
    firmware = extract_skills(text, vocabulary, "cv.txt", home_field="technology")
    assert "Electrical Engineering" not in {h.skill for h in firmware.held}
    assert {r.skill: r.reason for r in firmware.rejected}["Electrical Engineering"] == (
        "degree_subject"
    )
    assert "Digital Signal Processing" in {h.skill for h in firmware.held}  # studied
    electrical = extract_skills(text, vocabulary, "cv.txt", home_field="engineering")
    held = {h.skill: h for h in electrical.held}
    assert held["Electrical Engineering"].strength is SkillStrength.COURSE


@pytest.mark.parametrize(
    ("line", "skill"),
    [
        (
            "Built patient registration and invoice processing modules using Struts and JSP.",
            "Invoicing",
        ),
        ("Built the payroll and leave modules of an HR suite in Django.", "Payroll"),
        ("Own the demand-forecasting platform for 4,000 SKUs.", "Demand Planning"),
        (
            "- Consumer electronics listing portal: product search with filters.",
            "consumer electronics",
        ),
        ("Project 3: Invoicing Module in Java.", "Invoicing"),  # a built thing's name
        ("Project: Payroll & Leave Management Portal for a bank.", "Payroll"),
    ],
)
def test_what_a_builder_built_something_for_is_no_skill(
    vocabulary: Vocabulary, line: str, skill: str
):
    text = f"EXPERIENCE\nSoftware Engineer, Acme (2020 - present)\n{line}\n"
    developer = extract_skills(text, vocabulary, "cv.txt", home_field="technology")
    assert skill not in {h.skill for h in developer.held}
    assert {r.skill: r.reason for r in developer.rejected}[skill] == "project_domain"
    # the same words in a CV of that profession, or written as a name, are the skill
    own_field = extract_skills(
        text, vocabulary, "cv.txt", home_field=vocabulary.field_of_skill(skill)
    )
    assert skill in {h.skill for h in own_field.held}


def test_what_a_marketer_marketed_is_no_skill(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nMarketing Manager (2020 - present)\nRan campaigns for our payroll software.\n"
    )
    marketer = extract_skills(text, vocabulary, "cv.txt", home_field="marketing")
    assert {r.skill: r.reason for r in marketer.rejected}["Payroll"] == "project_domain"


def test_a_builders_tools_of_other_professions_stay_held(vocabulary: Vocabulary):
    text = "EXPERIENCE\nData Engineer (2020 - present)\nIntegrated the Salesforce API with Snowflake.\n"
    held = {
        h.skill for h in extract_skills(text, vocabulary, "cv.txt", home_field="technology").held
    }
    assert "Salesforce" in held  # a product name, not a domain


def test_the_clients_business_is_no_skill(vocabulary: Vocabulary):
    text = "Maintained 25 websites for clients in e-commerce and consumer electronics domains."
    assert _reasons(text, vocabulary).get("consumer electronics") == "project_domain"


def test_a_skill_inside_a_teams_name_is_the_teams(vocabulary: Vocabulary):
    text = "Automated a churn report in R Markdown, scheduled via Airflow by the data engineering team."
    reasons = _reasons(text, vocabulary)
    assert reasons["Data Engineering"] == "other_person"
    assert "R Markdown" not in reasons


@pytest.mark.parametrize(
    ("line", "field", "skill"),
    [
        ("Sourcing on LinkedIn Recruiter and Indeed; phone screens.", "hr", "Candidate Sourcing"),
        ("Run pipeline and forecasting in Salesforce.", "sales", "Sales Forecasting"),
        ("Run pipeline and forecasting in Salesforce.", "sales", "Sales Pipeline Management"),
        ("English Teacher at a secondary school in Krakow.", "education", "Secondary Education"),
    ],
)
def test_a_professions_own_words_count_only_in_its_cvs(
    vocabulary: Vocabulary, line: str, field: str, skill: str
):
    text = f"EXPERIENCE\n{line}\n"
    assert skill in {
        h.skill for h in extract_skills(text, vocabulary, "cv.txt", home_field=field).held
    }
    for other in ("technology", "logistics", None):
        extraction = extract_skills(text, vocabulary, "cv.txt", home_field=other)
        assert skill not in {h.skill for h in extraction.held}
        assert {r.skill: r.reason for r in extraction.rejected}[skill] == "other_field"


def test_a_heading_run_into_a_skill_is_cut_off(vocabulary: Vocabulary):
    text = "Performance (basic knowledge): JMeterPROFESSIONAL EXPERIENCETest Engineer, Noida"
    assert "Apache JMeter" in _held(text, vocabulary)


def test_a_credentials_acronym_counts_in_a_list_of_certifications(vocabulary: Vocabulary):
    text = "SUMMARY\nWelder.\nCERTIFICATIONS\nAWS D1.1 Structural 3G/4G; OSHA 30; TWIC\n"
    assert "TWIC" in _held(text, vocabulary)
    assert "TWIC" not in _held("SUMMARY\nI drove to the TWIC office.\n", vocabulary)


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Leading a team of 6 engineers and technicians on substation projects.", "Leadership"),
        ("Lead a 9-person R&D group designing hydraulic pumps.", "Leadership"),
        ("Led teams of up to 30 soldiers.", "Leadership"),
        ("Manage 2 marketing executives and a freelance designer.", "People Management"),
        ("Managed a team of eight committee and member support officers.", "People Management"),
        ("Supervised a team of 12, cash handling, rota planning.", "Team Supervision"),
        ("Preparation of students for CBSE board examinations.", "Exam Preparation"),
        ("Plan and deliver lessons for a class of 30.", "Lesson Planning"),
        ("Plan and teach all core subjects to a class of 29.", "Lesson Planning"),
        ("Mentor four graduate engineers working towards chartership.", "Mentoring"),
        ("Organised and hosted 14 trade shows across the region.", "Event Planning"),
        ("Planned and ran the charity's annual gala for 300 guests.", "Event Planning"),
        (
            "Coordinate 20-30 weddings a season, from first call to the last dance.",
            "Event Planning",
        ),
    ],
)
def test_a_phrase_shows_a_skill_it_does_not_name(vocabulary: Vocabulary, text: str, skill: str):
    assert skill in _held(text, vocabulary)


@pytest.mark.parametrize(
    "text",
    [
        "I have never led a team of engineers.",
        "Led the team's migration to Kubernetes.",
        "Owned lead generation team targets.",
        "Supervised 5 PhD students.",
    ],
)
def test_phrases_that_show_no_leadership(vocabulary: Vocabulary, text: str):
    held = _held(text, vocabulary)
    assert not held & {"Leadership", "People Management", "Team Supervision"}


def test_what_software_was_for_is_no_skill(vocabulary: Vocabulary):
    text = "SUMMARY\nEmbedded engineer building software for medical devices.\n"
    extraction = extract_skills(text, vocabulary, "cv.txt", home_field="technology")
    assert {r.skill: r.reason for r in extraction.rejected}["medical devices"] == "project_domain"


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Email and SMS marketing automation in Klaviyo.", "Email Marketing"),
        ("Wrote unit and integration tests with pytest.", "Unit Testing"),
        ("Handled accounts payable and receivable for 3 entities.", "Accounts Receivable"),
        ("Field and phone sales of solar panel installations.", "Field Sales"),
        ("Ledger close, accounts payable / receivable, VAT.", "Accounts Receivable"),
    ],
)
def test_a_skill_with_a_shared_word_left_out(vocabulary: Vocabulary, text: str, skill: str):
    assert skill in _held(text, vocabulary)


def test_coordination_joins_no_unrelated_words(vocabulary: Vocabulary):
    held = _held(
        "Python and Java developers built it; sales and marketing teams used it.", vocabulary
    )
    assert not held & {"Python", "Java", "Sales", "Marketing"}


def test_another_professions_acronym_needs_a_skill_context(vocabulary: Vocabulary):
    text = "EXPERIENCE\nHR Officer (2021 - present)\n- Unit personnel administration on JPA for 120 soldiers.\n"
    hr = extract_skills(text, vocabulary, "cv.txt", home_field="hr")
    assert "Hibernate" not in {h.skill for h in hr.held}
    developer = extract_skills(text, vocabulary, "cv.txt", home_field="technology")
    assert "Hibernate" in {h.skill for h in developer.held}
    listed = "SKILLS\nJava, Spring Boot, JPA, Oracle\n"
    assert "Hibernate" in {
        h.skill for h in extract_skills(listed, vocabulary, "cv.txt", home_field="hr").held
    }


def test_what_a_salesperson_sells_is_no_skill(vocabulary: Vocabulary):
    text = "Field and phone sales of solar panel installations to homeowners."
    assert _reasons(text, vocabulary).get("Solar PV Installation") == "project_domain"


def test_a_clients_team_holds_what_it_built(vocabulary: Vocabulary):
    text = "The app is on Android and iOS; the mobile apps are developed by the client's own team."
    assert "Mobile App Development" not in _held(text, vocabulary)


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Recruit, train and schedule a brigade of 22 chefs.", "Corporate Training"),
        ("Train new prep cooks on knife skills.", "Corporate Training"),
        ("General ledger, AP/AR and bank reconciliations.", "Accounts Payable"),
        ("General ledger, AP/AR and bank reconciliations.", "Accounts Receivable"),
        ("Led the move from SVN to Git.", "Apache Subversion"),
        ("Moved the whole team from SVN to Git.", "Apache Subversion"),
        ("k6 load tests before each major release.", "k6"),
        ("Modelled the finance marts in Snowflake with dbt.", "Data Modeling"),
        ("Orchestrate 140 DAGs; model the warehouse with dbt.", "Data Modeling"),
        ("Wrote 600 scripts for the regression suite.", "Regression Testing"),
        ("Parent consultations and home learning through Google Classroom.", "Google Classroom"),
    ],
)
def test_more_ways_a_cv_shows_a_skill(vocabulary: Vocabulary, text: str, skill: str):
    assert skill in _held(text, vocabulary)


def test_a_phrase_does_not_run_from_a_heading_into_the_next_line(vocabulary: Vocabulary):
    text = "TRAINING AND OTHER\nTeam Resource Management course, 2022"
    assert "Corporate Training" not in _held(text, vocabulary)


def test_trained_staff_are_not_training(vocabulary: Vocabulary):
    assert "Corporate Training" not in _held(
        "Recruited a pool of 150 trained polling staff.", vocabulary
    )


def test_a_listed_skill_marked_not_used_is_negated(vocabulary: Vocabulary):
    text = "SKILLS\nPower BI, Excel\nLooker - not used yet\n"
    assert "Looker" not in _held(text, vocabulary)
    assert _reasons(text, vocabulary)["Looker"] == "negated"
    assert "Power BI" in _held(text, vocabulary)


def test_a_table_rows_label_is_no_skill(vocabulary: Vocabulary):
    text = "SKILLS\nTechnology | Google Classroom; Microsoft Teams; SMART Board\n"
    held = _held(text, vocabulary)
    assert "technology" not in held
    assert "Google Classroom" in held


def test_a_number_before_a_lower_case_name_counts_things(vocabulary: Vocabulary):
    held = _held("SKILLS\nCassandra ring of 6 node, Kafka, ZooKeeper\n", vocabulary)
    assert "Node.js" not in held
    assert "Node.js" in _held("SKILLS\nTypeScript, Node, Express\n", vocabulary)


def test_a_foundation_is_an_organisation(vocabulary: Vocabulary):
    text = "CERTIFICATIONS\nKubernetes and Cloud Native Associate - The Linux Foundation, 2024\n"
    assert "Linux" not in _held(text, vocabulary)
    text = "CERTIFICATIONS\nISTQB Certified Tester Foundation Level (CTFL)\n"
    assert "ISTQB" in _held(text, vocabulary)


def test_outlook_is_microsoft_outlook_only_as_a_name(vocabulary: Vocabulary):
    assert "Microsoft Outlook" in _held("SKILLS\nMicrosoft Word, Outlook and Excel\n", vocabulary)
    assert "Microsoft Outlook" not in _held("SUMMARY\nThe outlook for 2024 is good.\n", vocabulary)


def test_tribunal_work_is_employment_law(vocabulary: Vocabulary):
    held = _held("EXPERIENCE\nConduct Employment Tribunal claims for employers.\n", vocabulary)
    assert "Employment Law" in held


@pytest.mark.parametrize(
    "text",
    [
        "CERTIFICATIONS\nStandard First Aid/CPR Level C\n",
        "LICENCES\nDriving licences: C (car), HR (heavy rigid)\n",
        "SKILLS\nForklift licence, Category C lorry\n",
    ],
)
def test_a_grade_letter_is_no_c(vocabulary: Vocabulary, text: str):
    assert "C" not in _held(text, vocabulary)


def test_a_vendors_product_is_not_another_vendors(vocabulary: Vocabulary):
    held = _held("SKILLS\nVeeva Vault eTMF, Medidata Rave, IBM QRadar\n", vocabulary)
    assert {"Veeva Vault", "Medidata Rave", "SIEM"} <= held
    assert not {"HashiCorp Vault", "IBM"} & held


@pytest.mark.parametrize(
    "text",
    [
        "Planned the Kafka events schema migration with the data team.",
        "Two years on the PCB Assembly line at Vortex Electronics.",
        "Shared the release notes in our Teams channel every Friday.",
        "We ran a lean team of four on a lean budget.",
    ],
)
def test_words_shared_with_a_skill_show_none(vocabulary: Vocabulary, text: str):
    shared = {"Event Planning", "Assembly Language", "Microsoft Teams", "Lean Manufacturing"}
    assert not shared & _held(text, vocabulary)


def test_a_clause_after_and_lends_no_head_word(vocabulary: Vocabulary):
    assert "Emergency Nursing" not in _held("Calm in an emergency and I care a lot.", vocabulary)


def test_a_cue_that_reaches_a_list_governs_all_of_it(vocabulary: Vocabulary):
    """A clause-wide cue within reach of a list's last item governs the whole list, as a
    "first" cue does ("GST and income tax" are both the adviser's)."""
    text = "Tally and payroll records of our clients are kept by their accountants."
    assert not {"Tally ERP", "Payroll"} & _held(text, vocabulary)


def test_a_college_level_skill_is_course_only(vocabulary: Vocabulary):
    held = extract_skills("Skills\nGo - college level only (lab work)", vocabulary, "cv.txt").held
    assert [(h.skill, h.strength) for h in held] == [("Go", SkillStrength.COURSE)]


def test_participant_recruitment_is_no_hiring(vocabulary: Vocabulary):
    held = _held("Ran participant recruitment and screening for 30 usability studies.", vocabulary)
    assert "Participant Recruitment" in held
    assert "Recruitment" not in held


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Wrote the sensor drivers in C.", True),  # the line's last word
        ("Father's Name : Shri R. K. Shankar", False),  # initials
        ("Referee: Prof. C. Smith, Leeds", False),
    ],
)
def test_a_single_letter_with_a_dot_is_an_initial_unless_it_ends_a_line_of_words(
    vocabulary: Vocabulary, text: str, held: bool
):
    assert ({"C", "R"} & _held(text, vocabulary) != set()) is held


@pytest.mark.parametrize(
    ("text", "held"),
    [
        ("Tools: Excel / VBA, Git", {"Microsoft Excel", "VBA", "Git"}),
        ("Kept the rota in Excel/VBA macros.", {"Microsoft Excel", "VBA"}),
        ("Lock-out/tag-out on every isolation.", {"Lockout/Tagout"}),
        ("Skills: CI/CD, TCP/IP", {"CI/CD", "TCP/IP"}),
    ],
)
def test_a_slash_parts_two_skills_only_where_each_side_is_one(
    vocabulary: Vocabulary, text: str, held: set[str]
):
    assert held <= _held(text, vocabulary)


@pytest.mark.parametrize(
    "text",
    [
        "Skills: Python\n\nHobbies: sailing, oil painting, chess",
        "Skills: Python\nINTERESTS\n- Oil painting\n- Kayaking",
    ],
)
def test_a_pastime_is_no_skill(vocabulary: Vocabulary, text: str):
    assert _held(text, vocabulary) == {"Python"}
    assert _reasons(text, vocabulary)["Oil Painting"] == "hobby"


@pytest.mark.parametrize(
    ("text", "skill", "reason"),
    [
        (
            "The forecasting models are trained by the data science team in PyTorch.",
            "PyTorch",
            "other_person",
        ),
        (
            "The agency's media buyers run the campaigns using Google Ads.",
            "Google Ads",
            "other_person",
        ),
        ("The underwriters price the risks in their own SAS models.", "SAS", "other_person"),
        ("Payroll and bookkeeping stay with the practice manager.", "Bookkeeping", "other_person"),
        (
            "Event planning and catering sit with them; I run the floor.",
            "Event Planning",
            "other_person",
        ),
        (
            "Our paralegals run the e-discovery in Relativity; I review it.",
            "Relativity",
            "other_person",
        ),
        ("My students built the robot in Arduino.", "Arduino", "other_person"),
        ("Kotlin is next on my list.", "Kotlin", "aspirational"),
        (
            "Hoping to learn data pipelines in Apache Airflow next year.",
            "Apache Airflow",
            "aspirational",
        ),
        ("Sourcing for Java, QA and support roles across 5 accounts.", "Java", "other_person"),
        ("Our claims analytics group maintains the Tableau dashboards.", "Tableau", "other_person"),
        ("We audit the ledgers, and its bookkeepers use QuickBooks.", "QuickBooks", "other_person"),
        ("Tableau - want to learn.", "Tableau", "aspirational"),
        ("PMP exam planned for 2027.", "PMP", "aspirational"),
        (
            "Doing AZ-900 first to move into Microsoft Azure work.",
            "Microsoft Azure",
            "aspirational",
        ),
        (
            "Currently learning SQL for data analysis of the sales logs.",
            "Data Analysis",
            "aspirational",
        ),
        ("Kotlin: learning by myself, nothing at work yet.", "Kotlin", "aspirational"),
        ("Nunca usei Kubernetes.", "Kubernetes", "negated"),
        (
            "Worked beside the GIS analyst, then assisted the GIS analyst daily.",
            "GIS",
            "other_person",
        ),
        (
            "The site's CAD officer, who models in Revit, sends me the drawings.",
            "Revit",
            "other_person",
        ),
        ("Refer clients to the dietitians for nutrition plans.", "Nutrition", "other_person"),
        ("Payroll is done by the head office; I send the timesheets.", "Payroll", "other_person"),
        ("Stock counts are prepared in SAP by the stores sergeant.", "SAP ERP", "other_person"),
        ("The lab (three analysts) runs the HPLC assays.", "HPLC", "other_person"),
        (
            "Pen-testing for a retailer's customers (iOS and Android).",
            "Android Development",
            "project_domain",
        ),
        (
            "I review our users' Android apps for privacy leaks.",
            "Android Development",
            "project_domain",
        ),
        (
            "Shell scripting is fine; started Terraform basics last month.",
            "Terraform",
            "aspirational",
        ),
        ("I know some Java but have never built anything in it.", "Java", "negated"),
        (
            "Eager to apply deep learning methods to our claims data.",
            "Deep Learning",
            "aspirational",
        ),
        ("Build pipelines on GitLab CI (YAML) for Java services.", "Java", "project_domain"),
        ("Backups for the Magento store of a furniture client.", "Magento", "project_domain"),
        ("Scala only read, never written.", "Scala", "negated"),
        (
            "In 2027 I will take the CKS course to catch up with Kubernetes.",
            "Kubernetes",
            "aspirational",
        ),
        (
            "The wiring and the plumbing were theirs; I fitted the kitchens.",
            "Plumbing",
            "other_person",
        ),
        ("At the club the other volunteers teach Python; I do the rota.", "Python", "other_person"),
        ("SCADA changes are done by the OEM; I log the alarms.", "SCADA", "other_person"),
        ("Source systems include SAP ECC and two CRMs.", "SAP ERP", "project_domain"),
        ("Planning to earn the PMP certification next year.", "PMP", "aspirational"),
    ],
)
def test_more_ways_a_skill_is_someone_elses_or_a_plan(
    vocabulary: Vocabulary, text: str, skill: str, reason: str
):
    assert _reasons(text, vocabulary).get(skill) == reason


def test_a_label_over_a_line_negates_its_items(vocabulary: Vocabulary):
    text = "Tools I use | Python; Git\nNot my area | Go (read the tour once); Rust; Kotlin\n"
    reasons = _reasons(text, vocabulary)
    assert {reasons.get(s) for s in ("Rust", "Kotlin")} == {"negated"}
    assert "Go" not in _held(text, vocabulary)
    assert {"Python", "Git"} <= _held(text, vocabulary)


def test_what_a_sellers_employer_sells_is_no_skill(vocabulary: Vocabulary):
    text = "Enrolled 90 learners a quarter on our Python, Cloud Computing and UI/UX Design courses."
    seller = extract_skills(text, vocabulary, "cv.txt", home_field="sales")
    assert {"Python", "Cloud Computing"} <= {r.skill for r in seller.rejected}
    teacher = extract_skills(text, vocabulary, "cv.txt", home_field="education")
    assert "Python" in {h.skill for h in teacher.held}  # one who teaches it may hold it


@pytest.mark.parametrize(
    "text",
    [
        "Painted a jungle wall for the Ruby Kids Play Zone, Pune.",
        "Weekend barista at The Java House, Galway.",
        "Clinic nurse, Spring  Valley  Clinic, Denver.",
        "Data from the Centre for Python Studies.",
    ],
)
def test_a_skill_word_starting_a_business_name_is_the_name(vocabulary: Vocabulary, text: str):
    assert not {"Ruby", "Java", "Spring Framework", "Python"} & _held(text, vocabulary)


def test_an_acronym_spelled_out_as_something_else_is_that(vocabulary: Vocabulary):
    school = "Higher Secondary, Indus Public School (IPS) Junior College, 2014."
    text = (
        f"{school}\nTrained in Amazon Web Services (AWS) and Project Management Professional (PMP)."
    )
    held = _held(text, vocabulary)
    assert {"AWS", "PMP"} <= held
    assert "Network Security" not in held  # the school's initials, not an IPS
    spelled = "Security: Intrusion Prevention Systems (IPS), firewalls"
    assert "Network Security" in _held(spelled, vocabulary)  # words the vocabulary lacks


def test_a_skill_word_before_a_companys_legal_form_is_its_name(vocabulary: Vocabulary):
    text = (
        "EXPERIENCE\nDesigner, JAVA DIGITAL, LDA – Lisbon\nPicker — Swift Freight, Inc., Houston\n"
    )
    assert not {"Java", "Swift"} & _held(text, vocabulary)
    assert _reasons(text, vocabulary).get("Java") == "employer_or_school_name"


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Tools: Jenkins, Kubernates, Helm", "Kubernetes"),
        ("ETL with Infosphere Datstage 11.7", "IBM DataStage"),
        ("Front end in Javscript and CSS", "JavaScript"),
    ],
)
def test_a_long_technology_name_with_one_typo_is_that_name(
    vocabulary: Vocabulary, text: str, skill: str
):
    found = {m.skill: m.surface for m in find_mentions(text, vocabulary)}
    assert skill in found and found[skill] not in (skill,)  # the evidence shows the typo


def test_a_word_two_edits_from_a_name_or_not_technology_is_no_typo(vocabulary: Vocabulary):
    text = "Ran Kubernatez labs; posting and costing of journals; the printing of catalogues."
    assert not {"Kubernetes", "Cost Accounting"} & {
        m.skill for m in find_mentions(text, vocabulary)
    }


def test_a_wrapped_line_after_a_word_that_cannot_end_a_clause_goes_on(vocabulary: Vocabulary):
    text = "- Dashboards are kept by the group's\nBI team in Tableau; I read them.\n"
    assert _reasons(text, vocabulary).get("Tableau") == "other_person"
    ended = "- Dashboards are kept by the group's BI team.\nTableau and Excel for my own reports.\n"
    assert "Tableau" in _held(ended, vocabulary)  # a line that ends a sentence still ends it


def test_a_plural_acronym_is_not_a_longer_one(vocabulary: Vocabulary):
    held = _held("Networking: VLANs, ACLs and static routes. Certified: ACLS, BLS.", vocabulary)
    assert "Advanced Cardiac Life Support" in held  # the written ACLS still is
    assert _reasons("Networking: VLANs, ACLs, NAT", vocabulary).get(
        "Advanced Cardiac Life Support"
    ) is None and "Advanced Cardiac Life Support" not in _held(
        "Networking: VLANs, ACLs", vocabulary
    )


@pytest.mark.parametrize(
    ("text", "skill"),
    [
        ("Owned the non-functional testing plan for the release.", "Functional Testing"),
        ("Handled techno-commercial negotiation with EPC buyers.", "Vendor Negotiation"),
    ],
)
def test_the_tail_of_a_hyphenated_compound_is_no_skill(
    vocabulary: Vocabulary, text: str, skill: str
):
    assert skill not in _held(text, vocabulary)
    assert _reasons(text, vocabulary).get(skill) == "part_of_compound"


def test_escos_labels_cut_short_match_no_everyday_word(vocabulary: Vocabulary):
    """ESCO's "business intelligence", "data mining", "real-time computing" were read as
    "business", "data", "real-time": the whole names replace them."""
    text = (
        "SKILLS\nBusiness, data, software, hardware, systems, internet, engineering\n"
        "Real-time dashboards for the real estate and medical device business.\n"
    )
    held = _held(text, vocabulary)
    cut = {"business", "data", "software", "hardware", "systems", "internet", "engineering",
           "real-time", "real estate", "medical device", "general", "information"}  # fmt: skip
    assert not held & cut
    assert "Data Mining" in _held("Skills: data mining, Python", vocabulary)


def test_another_case_counts_beside_skills_only_as_an_item(vocabulary: Vocabulary):
    booked = "SKILLS\n· Java · Python · site safety course booked for spring · Scaffold towers\n"
    assert "Spring Framework" not in _held(booked, vocabulary)
    listed = "SKILLS\nJava, spring, python\nRecruitment and onboarding\n"
    assert {"Java", "Python", "Spring Framework", "Onboarding"} <= _held(listed, vocabulary)
